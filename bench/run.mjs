// `npm run bench`: every figure of issue #5, measured side by side in one run, next to its goal.
//   npm run bench                         all sections (about 3-4 minutes on 2 cores)
//   npm run bench -- --only startup,bulk  some sections (startup, bulk, share, stream, throughput, paging, versus)
//   npm run bench -- --quick              fewer rounds and shorter loads, for a quick look
//   npm run bench -- --huge               issue 24 at 1,000 and 1,000,000 borrowers and loan requests
//                                         (bench/huge.mjs, then the --huge sections others add; ≤ 10 min)
//   npm run bench -- --save               also write the table into bench/README.md
// Exit 0 when every goal holds, 1 when one does not (✗ in the table), 2 when the bench failed.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bulk } from './bulk.mjs';
import { bulkShare } from './bulk-share.mjs';
import { huge } from './huge.mjs';
import { ROOT } from './lib.mjs';
import { paging } from './paging.mjs';
import { startup } from './startup.mjs';
import { stream } from './stream.mjs';
import { throughput } from './throughput.mjs';
import { versus } from './versus.mjs';

const SECTIONS = { startup, bulk, share: bulkShare, stream, throughput, paging, versus };
/**
 * What --huge runs: bench/huge.mjs, then each module named here that is present (others write
 * them: a module `bench/NAME.mjs` exporting a function `NAME({ quick, huge })` that returns
 * `{ lines, figures }` like every section). A missing one is skipped with a line saying so.
 */
const HUGE_MODULES = ['lookup', 'dashboard', 'restore'];

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    huge: { type: 'boolean', default: false },
    save: { type: 'boolean', default: false },
  },
});
if (values.huge) {
  SECTIONS.huge = huge;
  for (const name of HUGE_MODULES) SECTIONS[name] = await optionalSection(name);
}
const chosen = values.only
  ? values.only.split(',').map((name) => name.trim())
  : values.huge
    ? ['huge', ...HUGE_MODULES]
    : Object.keys(SECTIONS).filter((name) => name !== 'huge');
for (const name of chosen) {
  if (!SECTIONS[name]) {
    console.error(`bench: no section ${name}; choose among ${Object.keys(SECTIONS).join(', ')}`);
    process.exit(2);
  }
}

/** bench/NAME.mjs's section, or one that says it is not there yet. */
async function optionalSection(name) {
  try {
    const module = await import(`./${name}.mjs`);
    if (typeof module[name] !== 'function') throw new Error(`bench/${name}.mjs exports no function ${name}`);
    return module[name];
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes(`${name}.mjs`)) throw error;
    return async () => ({ lines: [`  bench/${name}.mjs is not there: skipped`], figures: [] });
  }
}

const machine = {
  nproc: execFileSync('nproc', { encoding: 'utf8' }).trim(),
  cpu: cpus()[0]?.model ?? 'unknown',
  node: process.version,
  date: new Date().toISOString().slice(0, 16).replace('T', ' '),
  load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
};
console.log(
  `loanctl bench — ${machine.nproc} CPUs (${machine.cpu}), Node ${machine.node}, ${machine.date} UTC, load ${machine.load}`,
);

const started = Date.now();
const figures = [];
let failed = false;
for (const name of chosen) {
  const sectionStart = Date.now();
  console.log(`\n## ${name}`);
  try {
    const result = await SECTIONS[name]({ quick: values.quick, huge: values.huge });
    for (const line of result.lines) console.log(line);
    figures.push(...result.figures.map((figure) => ({ section: name, ...figure })));
  } catch (error) {
    failed = true;
    console.error(`bench: ${name} failed: ${error?.stack ?? error}`);
    figures.push({ section: name, figure: `${name} (failed)`, measured: 'error', goalText: '—', holds: false });
  }
  console.log(`  (${((Date.now() - sectionStart) / 1000).toFixed(1)} s)`);
}

// A reported figure (no goal) has holds null or left out: no mark, rather than a ✗.
const mark = (holds) => (holds === null || holds === undefined ? '' : holds ? '✓' : '✗');
const rows = figures.map((f) => [f.figure, f.measured, f.goalText, mark(f.holds)]);
const header = ['figure', 'measured', 'goal', 'holds'];
const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
const line = (cells) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
const table = [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
const total = ((Date.now() - started) / 1000).toFixed(0);
console.log(`\n${table}\n\n(${total} s in all)`);

if (values.save) {
  const readme = join(ROOT, 'bench', 'README.md');
  const text = readFileSync(readme, 'utf8');
  // Each kind of run has a table of its own in bench/README.md: --huge's is under "Flat at a million".
  const marker = values.huge ? 'bench:huge-results' : 'bench:results';
  const block = [
    `<!-- ${marker} -->`,
    `Measured ${machine.date} UTC on ${machine.nproc} CPUs (${machine.cpu}), Node ${machine.node}, load average ${machine.load} at the start${values.quick ? ', --quick' : ''}${values.huge ? ', --huge' : ''}; ${total} s.`,
    '',
    table,
    `<!-- /${marker} -->`,
  ].join('\n');
  const start = text.indexOf(`<!-- ${marker} -->`);
  const end = text.indexOf(`<!-- /${marker} -->`);
  if (start < 0 || end < start) {
    console.error(
      `bench: bench/README.md has no <!-- ${marker} --> … <!-- /${marker} --> block to write the table into`,
    );
    process.exit(2);
  }
  writeFileSync(readme, text.slice(0, start) + block + text.slice(end + `<!-- /${marker} -->`.length));
  console.log('bench/README.md updated.');
}

const goalFailed = figures.some((f) => f.holds === false);
process.exit(failed ? 2 : goalFailed ? 1 : 0);
