/**
 * `loanctl demo`: the whole loan flow, start to finish, against a sandbox of its own.
 *
 * In-process: a sandbox server on a free loopback port with a temporary data dir, a second Deps
 * whose settings point at it (environment only: the user's profiles are not even read), and each
 * step's command line run through the CLI's own command tree (steps.ts). Narration goes to stderr; each step's
 * result to stdout — a table unless `-o` says otherwise (`-o json`: one JSON array of steps,
 * `-o ndjson`: one step a line, each `{step, title, command, result}`).
 *
 * At the end the sandbox is stopped and the temporary dir removed. Ctrl-C (or SIGTERM) does the
 * same and exits 130; a second one exits at once. `--keep` leaves the sandbox serving until
 * Ctrl-C (then exit 0, the data kept) and points the `sandbox` profile at it, as `sandbox start`
 * does. The API key is never printed.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GlobalOptions } from '../../basics.js';
import { timeoutMs } from '../../config/settings.js';
import { createDeps, type Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { DEMO_ORGANISATION_NAME, DEMO_PRODUCT_NAME } from '../../sandbox/admin.js';
import type { RunningSandbox } from '../../sandbox/server.js';
import { onSandboxListening, SANDBOX_PROFILE } from '../common/sandbox-listening.js';
import { intro, narrationStyle, nextSteps, type Style, summary } from './narration.js';
import { sandboxEnv, startSandbox } from './sandbox.js';
import { DEMO_STEPS, type DemoContext, type DemoStep, shellLine } from './steps.js';
import { cancelled, watchForStop } from './stop-watch.js';
import { captured, emptyStdin, gate } from './streams.js';

export interface DemoOptions {
  keep?: boolean;
  /** Tests: stop as Ctrl-C would (without touching the process's signal handlers' outcome). */
  stopSignal?: AbortSignal;
  /** Tests: called before each step (1-based), e.g. to stop or fail at a given step. */
  beforeStep?: (step: number) => void | Promise<void>;
  /** Tests: where the temporary dir is made (default: the OS's temp dir). */
  tmpDir?: string;
}

type DemoFormat = 'table' | 'json' | 'ndjson';

/** Global flags that make no sense for a demo that brings its own server and prints whole steps. */
const REFUSED: [keyof GlobalOptions, string][] = [
  ['profile', '--profile'],
  ['baseUrl', '--base-url'],
  ['raw', '--raw'],
  ['fields', '--fields'],
  ['dryRun', '--dry-run'],
];

export async function runDemo(options: DemoOptions, deps: Deps): Promise<void> {
  const format = demoFormat(deps.globals);
  timeoutMs(deps.globals.timeout); // a bad --timeout is exit 2 before anything starts

  const { stderr } = deps.io;
  const style = await narrationStyle(deps);
  const root = mkdtempSync(join(options.tmpDir ?? tmpdir(), 'loanctl-demo-'));
  const dataDir = join(root, 'data');
  let keepData = false;
  const removeData = () => {
    if (!keepData) rmSync(root, { recursive: true, force: true });
  };
  const stop = watchForStop(options.stopSignal, removeData);
  // A reader that stops early (`loanctl demo | head -1`) makes the bin exit at the next write
  // (EPIPE, bin/loanctl.js): the temporary dir, and the sandbox key in it, go on that exit too.
  process.on('exit', removeData);
  const out = gate(deps.io.stdout);
  // The verbs end with a `next: loanctl …` hint; in the demo the next step is the next command.
  const err = gate(stderr, (text) => text.startsWith('next: '));
  let running: RunningSandbox | undefined;
  let inner: Deps | undefined;

  try {
    mkdirSync(dataDir, { mode: 0o700 });
    stderr.write(intro(style));
    // Not raced against Ctrl-C: a server still starting would be left listening. It is quick.
    running = await startSandbox(dataDir, deps);
    if (stop.stopped) throw cancelled();
    const { url, demo } = running;
    stderr.write(
      `${style.dim('Sandbox:')} ${url} · organisation "${DEMO_ORGANISATION_NAME}" · product ${demo.product_id} ` +
        `"${DEMO_PRODUCT_NAME}" · data in ${dataDir}\n`,
    );

    const capture = format === 'table' ? undefined : captured();
    inner = createDeps({
      io: { stdin: emptyStdin(), stdout: capture ?? out, stderr: err },
      env: sandboxEnv(deps.env, join(root, 'config'), url, demo.api_key, demo.product_id),
      now: deps.now,
      sleep: deps.sleep,
      globals: {
        output: format === 'table' ? 'table' : 'json',
        input: false,
        timeout: deps.globals.timeout,
        ...(deps.globals.color === false && { color: false }),
        ...(deps.globals.debug && { debug: true }),
      },
    });

    const context: DemoContext = { productId: demo.product_id };
    const total = DEMO_STEPS.length;
    if (format === 'json') out.write('[');
    for (const [index, step] of DEMO_STEPS.entries()) {
      const number = index + 1;
      await options.beforeStep?.(number);
      if (stop.stopped) throw cancelled();
      const command = shellLine(['loanctl', ...step.argv(context)]);
      stderr.write(
        `\n${style.bold(`Step ${number}/${total} · ${step.title}`)}\n${style.dim(step.why)}\n${style.command(`$ ${command}`)}\n`,
      );
      await stop.race(runStep(step, context, inner));
      if (capture) {
        const record = { step: number, title: step.title, command, result: capture.take() };
        if (format === 'ndjson') out.write(`${JSON.stringify(record)}\n`);
        else out.write(`${index === 0 ? '\n  ' : ',\n  '}${JSON.stringify(record, null, 2).replace(/\n/g, '\n  ')}`);
      }
    }
    if (format === 'json') out.write('\n]\n');

    stderr.write(`\n${style.bold(summary(context, deps))}\n`);
    if (options.keep) {
      await keepServing(running, dataDir, context, deps, style);
      keepData = true;
      await stop.whenStopped;
      stderr.write('Stopping the sandbox…\n');
    }
  } finally {
    out.close();
    err.close();
    await inner?.dispose();
    await running?.close();
    removeData();
    process.off('exit', removeData);
    stop.dispose();
  }

  if (keepData) {
    stderr.write(`Sandbox stopped. Its data stays in ${dataDir}; serve it again with:\n`);
    stderr.write(`  loanctl sandbox start --data-dir ${dataDir}\n`);
  } else {
    stderr.write(`${style.dim('Stopped the sandbox and removed its data.')}\n${nextSteps(style)}`);
  }
}

/**
 * One step: its argv through the CLI's own command tree, as `main` would run it, but errors thrown
 * (the demo reports them) and the demo's global settings kept (the tree would otherwise reset
 * them from an argv that has no global flags).
 */
async function runStep(step: DemoStep, context: DemoContext, deps: Deps): Promise<void> {
  const { buildProgram } = await import('../../program.js');
  const globals = deps.globals;
  const program = buildProgram(deps).hook('preAction', () => {
    deps.globals = globals;
  });
  await program.parseAsync([...step.argv(context), ...(step.unshown ?? [])], { from: 'user' });
  await step.after?.(context, deps);
}

function demoFormat(globals: GlobalOptions): DemoFormat {
  const given = REFUSED.filter(([key]) => globals[key] !== undefined && globals[key] !== false).map(([, flag]) => flag);
  if (given.length > 0) {
    throw new UsageError(
      `The demo does not take ${given.join(', ')}: it runs against a sandbox of its own and prints each step whole.`,
      'Run it without them; `loanctl demo --keep` then leaves the sandbox running for your own commands.',
    );
  }
  const output = globals.output ?? 'table';
  if (output === 'csv' || output === 'xlsx') {
    throw new UsageError(
      `The demo does not print ${output === 'csv' ? 'CSV' : 'a spreadsheet'}: its steps return different kinds of records.`,
      'Use -o table (the default), -o json or -o ndjson.',
    );
  }
  return output;
}

async function keepServing(
  running: RunningSandbox,
  dataDir: string,
  context: DemoContext,
  deps: Deps,
  style: Style,
): Promise<void> {
  const { url, demo } = running;
  // A `sandbox` profile of the user's (a sandbox they serve) is never replaced: another name is taken.
  const written = await onSandboxListening(
    { url, api_key: demo.api_key, org_id: demo.org_id, product_id: demo.product_id, dataDir },
    { keepExisting: true },
    deps,
  );
  const id = context.loanId ?? 1;
  const p = `loanctl --profile ${written?.name ?? SANDBOX_PROFILE}`;
  deps.io.stderr.write(
    [
      `The sandbox keeps running at ${url} (data in ${dataDir}).`,
      'Try, in another terminal:',
      style.command(`  ${p} loan show ${id}`),
      style.command(`  ${p} loan list`),
      `${style.command(`  ${p} loan new`)}     a loan request of your own, with questions`,
      `The lender dashboard: ${url}/dashboard (${p} sandbox open); sign in with the profile's API key.`,
      'Press Ctrl-C to stop it.',
      '',
    ].join('\n'),
  );
}
