#!/usr/bin/env node
// Tiny shim: check the Node version in syntax any Node can parse, turn on the compile cache
// (repeat starts skip parsing the bundle), then hand over to the bundle.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(
    `loanctl needs Node.js 22.13 or newer; this is ${process.version}. Install a newer Node and try again.\n`,
  );
  process.exit(2);
}
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
const { main } = await import('../dist/loanctl.js');
process.exitCode = await main(process.argv.slice(2));
