// Writes README's "Command reference" (between its markers) from the commander tree, whose flags
// for API fields come from the contract (src/docs/commands-markdown.ts). Run it after adding or
// changing a command, flag or help text; test/unit/readme-commands.test.ts fails until then.
// esbuild bundles the generator on the fly: Node cannot import the TypeScript sources as they are.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const entry = `
import { completionSpec } from './src/completion/spec.ts';
import { commandsMarkdown, withReference } from './src/docs/commands-markdown.ts';
import { createDeps } from './src/deps.ts';
import { buildProgram } from './src/program.ts';
export function render(readme) {
  const program = buildProgram(createDeps({ io: { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, env: {} }));
  return withReference(readme, commandsMarkdown(completionSpec(program)));
}`;
const root = new URL('..', import.meta.url);
const bundle = await build({
  stdin: { contents: entry, resolveDir: root.pathname, loader: 'ts' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  write: false,
  packages: 'external',
  logLevel: 'error',
});
// Written inside the project so that the bundle's imports of npm packages resolve.
const cache = new URL('../node_modules/.cache/', import.meta.url);
mkdirSync(cache, { recursive: true });
const generator = new URL('gen-docs.mjs', cache);
writeFileSync(generator, bundle.outputFiles[0].text);
const { render } = await import(generator.href);
const readmeUrl = new URL('../README.md', import.meta.url);
writeFileSync(readmeUrl, render(readFileSync(readmeUrl, 'utf8')));
console.log('README.md: command reference written');
