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
import { Readable, Writable } from 'node:stream';
import { timeoutMs } from '../../config/settings.js';
import { createDeps, type Deps, type Env, type GlobalOptions, type OutputStream } from '../../deps.js';
import { CancelledError, ExitCode, LoanctlError, UsageError } from '../../errors.js';
import { formatMoney } from '../../output/format.js';
import { colorEnabled } from '../../output/settings.js';
import { buildSchedule } from '../../repayment/index.js';
import { DEMO_ORGANISATION_NAME, DEMO_PRODUCT_NAME } from '../../sandbox/admin.js';
import { type RunningSandbox, startSandboxServer } from '../../sandbox/server.js';
import { scheduleTerms } from '../../schedule/run.js';
import { sandboxErrorLine } from '../common/sandbox-error-line.js';
import { onSandboxListening, SANDBOX_PROFILE } from '../common/sandbox-listening.js';
import { DEMO_STEPS, type DemoContext, type DemoStep, SCHEDULE, shellLine, TERMS } from './steps.js';

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
  const stop = watchForStop(options.stopSignal, () => {
    if (!keepData) rmSync(root, { recursive: true, force: true });
  });
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
    if (!keepData) rmSync(root, { recursive: true, force: true });
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
  if (output === 'csv') {
    throw new UsageError(
      'The demo does not print CSV: its steps return different kinds of records.',
      'Use -o table (the default), -o json or -o ndjson.',
    );
  }
  return output;
}

async function startSandbox(dataDir: string, deps: Deps): Promise<RunningSandbox> {
  try {
    return await startSandboxServer({
      dataDir,
      host: '127.0.0.1',
      port: 0,
      onError: (error) => deps.io.stderr.write(sandboxErrorLine(error, deps)),
    });
  } catch (error) {
    throw new LoanctlError(
      `Could not start the demo's sandbox on 127.0.0.1: ${error instanceof Error ? error.message : error}.`,
      ExitCode.api,
      'Check that this machine allows listening on loopback, then try again.',
    );
  }
}

/**
 * The demo's own environment: the machine's (colour, TERM, proxies…) without any LOANCTL_*
 * setting of the user's, an empty config dir of its own so no profile of the user's is read, and
 * the sandbox's URL, key and product.
 */
function sandboxEnv(env: Env, configDir: string, url: string, apiKey: string, productId: number): Env {
  const clean: Env = {};
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('LOANCTL_') || name === 'LOANCTL_DEBUG') clean[name] = value;
  }
  return {
    ...clean,
    LOANCTL_CONFIG_DIR: configDir,
    LOANCTL_BASE_URL: url,
    LOANCTL_API_KEY: apiKey,
    LOANCTL_PRODUCT_ID: String(productId),
  };
}

async function keepServing(
  running: RunningSandbox,
  dataDir: string,
  context: DemoContext,
  deps: Deps,
  style: Style,
): Promise<void> {
  const { url, demo } = running;
  await onSandboxListening(
    { url, api_key: demo.api_key, org_id: demo.org_id, product_id: demo.product_id, dataDir },
    {},
    deps,
  );
  const id = context.loanId ?? 1;
  const p = `loanctl --profile ${SANDBOX_PROFILE}`;
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

function intro(style: Style): string {
  return [
    style.bold('loanctl demo: the whole loan flow, start to finish, on a sandbox of its own'),
    '',
    'loanctl lets a lender run the Lending Origination API from a terminal or a script: create',
    'borrowers and loan requests, attach bank details, employment and guarantors, submit, approve,',
    'and read it all back. This demo starts a private sandbox of the API on this machine, runs each',
    'step with the command you would type (after "$"), prints what came back, and cleans up after.',
    '',
    '',
  ].join('\n');
}

function summary(context: DemoContext, deps: Deps): string {
  const schedule = buildSchedule(scheduleTerms(SCHEDULE, deps.now()));
  const count = schedule.instalments.length;
  return (
    `Done: loan request ${context.loanId} is approved: ${formatMoney(Number(TERMS.approvedAmount))} over ` +
    `${TERMS.tenure} ${TERMS.tenuredIn}, ${formatMoney(schedule.total_repayment)} to repay in ${count} ` +
    `${TERMS.frequency} instalments.`
  );
}

function nextSteps(style: Style): string {
  const row = (command: string, what: string) => `  ${style.command(command.padEnd(38))}  ${what}`;
  return [
    '',
    style.bold('Next:'),
    row('loanctl demo --keep', 'the same, then leave the sandbox running to explore'),
    row('loanctl sandbox start', 'a sandbox of your own that keeps its data'),
    row(`loanctl --profile ${SANDBOX_PROFILE} loan new`, 'in another terminal: your own loan request, guided'),
    row('loanctl --help', 'every command; each has --help with examples'),
    '',
  ].join('\n');
}

// --- narration style ------------------------------------------------------------------------

interface Style {
  bold(text: string): string;
  dim(text: string): string;
  command(text: string): string;
}

/** Colour on stderr by the conventions' rules (a TTY, no NO_COLOR or --no-color; FORCE_COLOR). */
async function narrationStyle(deps: Deps): Promise<Style> {
  const plain = (text: string) => text;
  if (!colorEnabled(deps.globals, deps.env, deps.io.stderr)) return { bold: plain, dim: plain, command: plain };
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  return { bold: (text) => chalk.bold(text), dim: (text) => chalk.dim(text), command: (text) => chalk.cyan(text) };
}

// --- streams --------------------------------------------------------------------------------

interface Gate extends OutputStream {
  /** From now on, drop every write (a step still running after Ctrl-C prints nothing). */
  close(): void;
}

/** Passes writes through to `target` (same TTY-ness and width) until closed; drops what `skip` says. */
function gate(target: OutputStream, skip?: (text: string) => boolean): Gate {
  let open = true;
  const stream = new Writable({
    decodeStrings: false,
    write(chunk, _encoding, callback) {
      if (open && !skip?.(String(chunk))) target.write(chunk);
      callback();
    },
  }) as Writable & Gate;
  stream.isTTY = target.isTTY;
  Object.defineProperty(stream, 'columns', { get: () => target.columns });
  stream.close = () => {
    open = false;
  };
  return stream;
}

/** Collects one step's JSON output, then hands it over parsed. */
function captured(): OutputStream & { take(): unknown } {
  let text = '';
  const stream = new Writable({
    decodeStrings: false,
    write(chunk, _encoding, callback) {
      text += String(chunk);
      callback();
    },
  }) as Writable & { isTTY?: boolean; take(): unknown };
  stream.isTTY = false;
  stream.take = () => {
    const taken = text.trim();
    text = '';
    return taken === '' ? null : JSON.parse(taken);
  };
  return stream;
}

/** Nothing for the verbs to read: the demo never prompts and never reads the user's stdin. */
function emptyStdin(): Deps['io']['stdin'] {
  const stream = Readable.from([]) as Readable & { isTTY?: boolean };
  stream.isTTY = false;
  return stream;
}

// --- Ctrl-C ---------------------------------------------------------------------------------

const cancelled = () =>
  new CancelledError('Demo cancelled.', 'The sandbox was stopped and its temporary data removed.');

interface StopWatch {
  readonly stopped: boolean;
  /** Resolves on the first SIGINT/SIGTERM (or when the test's signal aborts). */
  readonly whenStopped: Promise<void>;
  /** `work`, unless a stop comes first: then a CancelledError. */
  race<T>(work: Promise<T>): Promise<T>;
  dispose(): void;
}

function watchForStop(signal: AbortSignal | undefined, cleanupNow: () => void): StopWatch {
  let stopped = false;
  let resolveStopped!: () => void;
  const stoppedPromise = new Promise<void>((resolve) => {
    resolveStopped = resolve;
  });
  const onSignal = () => {
    if (stopped) {
      // A second Ctrl-C: exit at once (removing the temporary dir first, unless --keep kept it).
      cleanupNow();
      process.exit(ExitCode.cancelled);
    }
    stopped = true;
    resolveStopped();
  };
  const onAbort = () => {
    if (!stopped) onSignal();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return {
    get stopped() {
      return stopped;
    },
    whenStopped: stoppedPromise,
    race(work) {
      return Promise.race([
        work,
        stoppedPromise.then(() => {
          throw cancelled();
        }),
      ]);
    },
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}
