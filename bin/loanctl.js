#!/usr/bin/env node
// Tiny shim: check the Node version in syntax any Node can parse, turn on the compile cache
// (repeat starts skip parsing the bundle), then hand over to the bundle.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(
    `loanctl needs Node.js 22.13 or newer; this is ${process.version}.\n` +
      'Install Node.js 24 (or 22.13+) and try again, or use the single-file loanctl binary, which carries its own Node (README, "Quick start").\n',
  );
  process.exit(2);
}
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
const { main, prepareProcess } = await import('../dist/loanctl.js');
prepareProcess();
process.exitCode = await main(process.argv.slice(2));
