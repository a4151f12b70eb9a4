/**
 * The bundle's entry point (dist/loanctl.js). What scripts ask most often and most cheaply —
 * `loanctl --version`, and `loanctl --help` to a pipe or a file — is answered here, by a module
 * that imports nothing, so Node loads this one file for them and not commander and the command
 * tree: through those, both took ~1.5 × `node -e 0`, over the 1.3 × goal (bench/README.md, "the
 * plain build"). Anything else goes to ./main.ts.
 */

declare const __LOANCTL_VERSION__: string;

/** The root help scripts/build.mjs renders beside the bundle (commander's width off a terminal: 80). */
const ROOT_HELP_FILE = 'root-help.txt';

export async function main(argv: string[]): Promise<number> {
  const [only] = argv;
  if (argv.length === 1 && (only === '--version' || only === '-v')) {
    // The line commander prints, without loading commander or building the command tree.
    process.stdout.write(`${__LOANCTL_VERSION__}\n`);
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
    // Through getBuiltinModule: an ESM `import 'node:fs'` would cost more than the read.
    return process.getBuiltinModule('node:fs').readFileSync(new URL(ROOT_HELP_FILE, import.meta.url), 'utf8');
  } catch {
    // Not built yet (the build itself renders the help through the full path).
    return undefined;
  }
}
