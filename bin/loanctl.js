#!/usr/bin/env node
// Tiny shim: check the Node version in syntax any Node can parse, turn on the compile cache, then
// hand over to the bundle.
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

// The compile cache: repeat starts skip parsing the bundle (docs/decisions/compile-cache.md).
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
const { main, prepareProcess } = await import('../dist/loanctl.mjs');
prepareProcess();
process.exitCode = await main(process.argv.slice(2));
