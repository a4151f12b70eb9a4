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
// NO_COLOR wins over FORCE_COLOR (conventions.md); dropping FORCE_COLOR also stops Node warning
// that it ignores NO_COLOR.
if (process.env.NO_COLOR && process.env.FORCE_COLOR !== undefined) delete process.env.FORCE_COLOR;
// A reader that stops early (`loanctl loan list --all | head -1`) closes the pipe: stop quietly,
// as a program killed by SIGPIPE would, instead of an unhandled EPIPE stack trace.
// Any other failure to write (a full disk, a closed terminal) ends the run with one line, where
// that line can still be written, and exit 1: never a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    if (stream !== process.stderr) process.stderr.write(`loanctl: could not write the output: ${error.message}\n`);
    process.exit(1);
  });
}
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
const { main } = await import('../dist/loanctl.js');
process.exitCode = await main(process.argv.slice(2));
