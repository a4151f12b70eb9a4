/**
 * The bundle's entry point (dist/loanctl.mjs). What scripts ask most often and most cheaply —
 * `loanctl --version`, and `loanctl --help` to a pipe or a file — is answered here, by a module
 * that imports nothing, so Node loads this one file for them and not commander and the command
 * tree: through those, both took ~1.5 × `node -e 0`, over the start-up goal
 * (docs/performance.md#goals). Anything else goes to ./main.ts.
 */

import { IS_BINARY, versionLine } from './version.js';

/** The root help scripts/build.mjs renders beside the bundle (commander's width off a terminal: 80). */
const ROOT_HELP_FILE = 'root-help.txt';

export async function main(argv: string[]): Promise<number> {
  const [only] = argv;
  if (argv.length === 1 && (only === '--version' || only === '-v')) {
    // The line commander prints, without loading commander or building the command tree.
    process.stdout.write(`${versionLine()}\n`);
    return 0;
  }
  if (argv.length === 1 && (only === '--help' || only === '-h') && !process.stdout.isTTY) {
    const text = renderedRootHelp();
    if (text !== undefined) {
      process.stdout.write(text);
      return 0;
    }
  }
  const full = await import('./main.js');
  return full.main(argv);
}

function renderedRootHelp(): string | undefined {
  try {
    // The single executable carries it as an asset of the same name (scripts/package.mjs).
    if (IS_BINARY) return process.getBuiltinModule('node:sea').getAsset(ROOT_HELP_FILE, 'utf8');
    // Through getBuiltinModule: an ESM `import 'node:fs'` would cost more than the read.
    return process.getBuiltinModule('node:fs').readFileSync(new URL(ROOT_HELP_FILE, import.meta.url), 'utf8');
  } catch {
    // Not built yet (the build itself renders the help through the full path).
    return undefined;
  }
}

/**
 * What every start does before the program runs, the npm package's (bin/loanctl.js) and the single
 * executable's (src/binary.ts) alike.
 */
export function prepareProcess(): void {
  // NO_COLOR wins over FORCE_COLOR (docs/guide.md#output-formats); dropping FORCE_COLOR also stops Node warning
  // that it ignores NO_COLOR.
  if (process.env.NO_COLOR && process.env.FORCE_COLOR !== undefined) delete process.env.FORCE_COLOR;
  // A reader that stops early (`loanctl loan list --all | head -1`) closes the pipe: stop quietly,
  // as a program killed by SIGPIPE would, instead of an unhandled EPIPE stack trace.
  // Any other failure to write (a full disk, a closed terminal) ends the run with one line, where
  // that line can still be written, and exit 1: never a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      if (stream !== process.stderr) process.stderr.write(`loanctl: could not write the output: ${error.message}\n`);
      process.exit(1);
    });
  }
}
