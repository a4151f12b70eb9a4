/**
 * `--jq EXPR`: a real jq (jq 1.7 compiled to WebAssembly, the `jq-web` package) filters what a
 * command prints as JSON, strings printed raw (jq's `-r`, as gh's `--jq`). The expression is
 * compiled before the command sends anything (a bad one is exit 2 with nothing sent). jq-web
 * compiles the filter on every call, so a list walk (`--all`) hands it one page a call, each
 * record one jq input, as jq reads NDJSON.
 *
 * jq-web loads its `jq.wasm` from beside its `jq.js`: the build leaves it in node_modules
 * (scripts/build.mjs), and the single executable carries both as assets (./jq-asset.ts).
 */
import { createRequire } from 'node:module';
import { UsageError } from '../errors.js';
import { IS_BINARY } from '../version.js';

interface JqWeb {
  raw(input: string, filter: string, flags?: string[]): string;
}

/** A compiled `--jq` expression: `run` takes JSON text (one value or several, one a line). */
export interface JqFilter {
  run(input: string): string;
}

export async function compileJq(expression: string): Promise<JqFilter> {
  const jq = await loadJq();
  const filter = expression.trim() === '' ? '.' : expression;
  // Compiled, never run: the expression as the body of a function no one calls (a newline ends
  // a comment it may end with).
  // When it does not compile, jq's words come from the expression alone: jq compiles a program
  // whole before it runs any of it, so this runs nothing either.
  attempt(() => {
    try {
      return jq.raw('null', `def loanctl_check: ${filter}\n; empty`);
    } catch {
      return jq.raw('null', filter);
    }
  }, 'is not a jq expression');
  return {
    run: (input) => attempt(() => jq.raw(input, filter, ['-r']), 'failed on the output'),
  };
}

async function loadJq(): Promise<JqWeb> {
  if (IS_BINARY) return (await import('./jq-asset.js')).jqFromAssets();
  // require, not import(): the module's export is a promise, which an import's namespace cannot carry.
  const require = createRequire(import.meta.url);
  return require('jq-web') as Promise<JqWeb>;
}

function attempt(run: () => string | undefined, what: string): string {
  // jq's main sets the process's exit code as it returns: the command's own must stand.
  const exitCode = process.exitCode;
  try {
    return run() ?? '';
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? (error as Error).message);
    const said = stderr
      .split('\n')
      .filter((line) => line.startsWith('jq: error'))
      .map((line) => line.replace(/^jq: error(?: \(at [^)]*\))?: /, '').replace(/ at <top-level>, line \d+:$/, ''));
    throw new UsageError(`--jq ${what}: ${said[0] ?? stderr.trim()}.`, "See jq's manual: https://jqlang.org/manual/");
  } finally {
    process.exitCode = exitCode;
  }
}
