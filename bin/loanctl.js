#!/usr/bin/env node
// Tiny shim: check the Node version in syntax any Node can parse, restart a list walk on Node with
// a bounded young generation (below), turn on the compile cache (repeat starts skip parsing the
// bundle), then hand over to the bundle.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(
    `loanctl needs Node.js 22.13 or newer; this is ${process.version}.\n` +
      'Install Node.js 24 (or 22.13+) and try again, or use the single-file loanctl binary, which carries its own Node (README, "Quick start").\n',
  );
  process.exit(2);
}
if (major === 22) {
  // Node 22 warns on stderr, at every command that opens a sandbox, that node:sqlite (where the
  // sandbox keeps its data) is experimental; Node 24 does not. A note to whoever chose the module,
  // not to the operator: that one warning is dropped, every other one printed.
  const emitWarning = process.emitWarning;
  process.emitWarning = (warning, ...rest) => {
    if (rest[0] === 'ExperimentalWarning' && String(warning).startsWith('SQLite is an experimental')) return;
    emitWarning.call(process, warning, ...rest);
  };
}

// A run that walks or sends a list of any length (./long-run.js says which, and why) replaces this
// process (same pid, stdio, signals and exit status) with Node started with a bounded young
// generation. Where Node cannot (Windows; Node before 22.15, which has no process.execve), it runs
// here on V8's defaults.
const { youngGenerationFlag, sizeGiven } = await import('./long-run.js');
const argv = process.argv.slice(2);
const youngGeneration = youngGenerationFlag(argv);
if (youngGeneration && process.execve && !sizeGiven(process.execArgv, process.env.NODE_OPTIONS)) {
  const { fileURLToPath } = process.getBuiltinModule('node:url');
  const script = fileURLToPath(import.meta.url);
  try {
    process.execve(process.execPath, [process.execPath, ...process.execArgv, youngGeneration, script, ...argv]);
  } catch {
    // Not replaced (it returns only on failure): the walk runs here, on V8's default sizes.
  }
}
// Builtins through getBuiltinModule, not import(): see scripts/builtin-imports.mjs.
const { enableCompileCache, registerHooks } = process.getBuiltinModule('node:module');
enableCompileCache?.();
// The bundle's chunks import one another as './chunks/NAME.js'. Node's own resolution of each (the
// file's real path, stats, the nearest package.json for its module type) took ~10 ms of a `user
// exists`, which loads 47 of them (bench/README.md, "Start-up: chunks and builtins"); they are ES
// modules written by scripts/build.mjs into ../dist, so their URL is all there is to resolve.
// Node before 22.15 has no registerHooks and resolves them itself.
const bundle = new URL('../dist/', import.meta.url).href;
registerHooks?.({
  resolve: (specifier, context, nextResolve) =>
    specifier.startsWith('./') && context.parentURL?.startsWith(bundle)
      ? { url: new URL(specifier, context.parentURL).href, format: 'module', shortCircuit: true }
      : nextResolve(specifier, context),
});
const { main, prepareProcess } = await import('../dist/loanctl.js');
prepareProcess();
process.exitCode = await main(argv);
