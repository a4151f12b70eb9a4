/**
 * `startSandbox()` of 'loanctl/sandbox' (the built dist/sandbox.mjs) in a process of its own, as a
 * lender's test suite runs it: its temporary data dir (`loanctl-sandbox-*`, with the database and
 * the demo's credentials) is gone on every way out the process survives, without `stop()`.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT } from '../helpers/cli.js';

let scratch: string;
let script: string;

beforeAll(() => {
  assertBuilt();
  scratch = mkdtempSync(join(tmpdir(), 'loanctl-exit-'));
  script = join(scratch, 'suite.mjs');
  writeFileSync(
    script,
    `import { existsSync } from 'node:fs';
import { startSandbox } from ${JSON.stringify(join(ROOT, 'dist/sandbox.mjs'))};
const how = process.argv[2];
if (how === 'once-before') process.once('SIGINT', () => console.log('handled'));
const sandbox = await startSandbox();
if (how === 'own-handler') process.on('SIGINT', () => process.exit(130));
console.log(sandbox.dataDir);
if (how === 'exit') setTimeout(() => process.exit(0), 10);
if (how === 'throw') setTimeout(() => { throw new Error('a test failed badly'); }, 10);
if (how === 'once-before') {
  process.emit('SIGINT');
  console.log(existsSync(sandbox.dataDir) ? 'dir kept' : 'dir gone');
  await sandbox.stop();
  console.log('still running');
}
`,
  );
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs the suite until it prints its data dir, then `then(child)`; resolves with how it ended and the dir. */
async function run(how: string, then: (child: ReturnType<typeof execa>) => void = () => {}) {
  const child = execa(process.execPath, [script, how], { reject: false, buffer: { stdout: false }, timeout: 60_000 });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const dataDir = await new Promise<string>((resolve) => lines.once('line', resolve));
  expect(existsSync(join(dataDir, 'sandbox.db'))).toBe(true);
  then(child);
  const result = await child;
  return { result, dataDir };
}

describe('the temporary data dir of startSandbox() is removed', () => {
  it('at a normal exit (process.exit) without stop()', async () => {
    const { result, dataDir } = await run('exit');
    expect(result.exitCode).toBe(0);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('after an uncaught exception, which still ends the process with its error', async () => {
    const { result, dataDir } = await run('throw');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('a test failed badly');
    expect(existsSync(dataDir)).toBe(false);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('on %s, and the process still ends by that signal', async (signal) => {
    const { result, dataDir } = await run('wait', (child) => child.kill(signal));
    expect(result.signal).toBe(signal);
    expect(existsSync(dataDir)).toBe(false);
  });

  it("on a Ctrl-C the suite's own `once` handler (set first) takes: the process goes on", async () => {
    // The sandbox's handler used to count the other handlers after that one had removed itself,
    // and under process.emit it got no signal name: it ended the process (a test worker) by SIGTERM.
    const result = await execa(process.execPath, [script, 'once-before'], { reject: false, timeout: 60_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.split('\n').slice(1)).toEqual(['handled', 'dir gone', 'still running']);
  });

  it("on SIGINT with the suite's own handler, which keeps its say (exit 130)", async () => {
    const { result, dataDir } = await run('own-handler', (child) => child.kill('SIGINT'));
    expect(result.exitCode).toBe(130);
    expect(existsSync(dataDir)).toBe(false);
  });
});
