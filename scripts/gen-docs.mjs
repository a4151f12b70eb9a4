// Writes the command reference, docs/reference/ (one file per top-level command and an index), from
// the commander tree, whose flags for API fields come from the contract (src/reference/commands-markdown.ts).
// Run it after adding or changing a command, flag or help text; test/unit/reference-docs.test.ts
// fails until then. A file there that the tree no longer gives is removed.

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { importTs } from './import-ts.mjs';

const entry = `
import { completionSpec } from './src/completion/spec.ts';
import { helpExamples, REFERENCE_DIR, referenceFiles } from './src/reference/commands-markdown.ts';
import { createDeps } from './src/deps.ts';
import { buildWholeProgram } from './src/program.ts';
export { REFERENCE_DIR };
export async function render() {
  const program = await buildWholeProgram(createDeps({ io: { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, env: {} }));
  return referenceFiles(completionSpec(program), helpExamples(program));
}`;
const root = new URL('..', import.meta.url);
const { render, REFERENCE_DIR } = await importTs(
  { stdin: { contents: entry, resolveDir: root.pathname, loader: 'ts' } },
  'gen-docs.mjs',
);
const dir = new URL(`${REFERENCE_DIR}/`, root);
mkdirSync(dir, { recursive: true });
const files = await render();
for (const name of readdirSync(dir)) if (!files.has(name)) rmSync(new URL(name, dir));
for (const [name, text] of files) writeFileSync(new URL(name, dir), text);
console.log(`${REFERENCE_DIR}: ${files.size} files written`);

// docs/guide.md's "Stages of a loan request" (between its markers), from the state table
// (src/reference/stages-markdown.ts); test/unit/stages-doc.test.ts fails until it is run.
const stages = await importTs(
  { entryPoints: [new URL('../src/reference/stages-markdown.ts', import.meta.url).pathname] },
  'gen-docs-stages.mjs',
);
const guideUrl = new URL('../docs/guide.md', import.meta.url);
writeFileSync(guideUrl, stages.withStages(readFileSync(guideUrl, 'utf8'), stages.stagesMarkdown()));
console.log('docs/guide.md: stages of a loan request written');
