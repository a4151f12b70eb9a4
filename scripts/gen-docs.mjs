// Writes README's "Command reference" (between its markers) from the commander tree, whose flags
// for API fields come from the contract (src/reference/commands-markdown.ts). Run it after adding or
// changing a command, flag or help text; test/unit/readme-commands.test.ts fails until then.

import { readFileSync, writeFileSync } from 'node:fs';
import { importTs } from './import-ts.mjs';

const entry = `
import { completionSpec } from './src/completion/spec.ts';
import { commandsMarkdown, withReference } from './src/reference/commands-markdown.ts';
import { createDeps } from './src/deps.ts';
import { buildProgram } from './src/program.ts';
export function render(readme) {
  const program = buildProgram(createDeps({ io: { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, env: {} }));
  return withReference(readme, commandsMarkdown(completionSpec(program)));
}`;
const root = new URL('..', import.meta.url);
const { render } = await importTs(
  { stdin: { contents: entry, resolveDir: root.pathname, loader: 'ts' } },
  'gen-docs.mjs',
);
const readmeUrl = new URL('../README.md', import.meta.url);
writeFileSync(readmeUrl, render(readFileSync(readmeUrl, 'utf8')));
console.log('README.md: command reference written');

// docs/guide.md's "Stages of a loan request" (between its markers), from the state table
// (src/reference/stages-markdown.ts); test/unit/stages-doc.test.ts fails until it is run.
const stages = await importTs(
  { entryPoints: [new URL('../src/reference/stages-markdown.ts', import.meta.url).pathname] },
  'gen-docs-stages.mjs',
);
const guideUrl = new URL('../docs/guide.md', import.meta.url);
writeFileSync(guideUrl, stages.withStages(readFileSync(guideUrl, 'utf8'), stages.stagesMarkdown()));
console.log('docs/guide.md: stages of a loan request written');
