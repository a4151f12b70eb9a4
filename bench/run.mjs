// `npm run bench`: every goal of docs/performance.md, measured side by side, next to its goal.
//   npm run bench                         all sections (about 5 minutes on 2 cores)
//   npm run bench -- --only startup,bulk  some sections (startup, binary, bulk, share, stream, throughput,
//                                         paging, versus)
//   npm run bench -- --quick              fewer rounds and shorter loads, for a quick look
//   npm run bench -- --huge               the goals at 1,000,000 borrowers and loan requests
//                                         (bench/huge.mjs, dashboard.mjs, restore.mjs)
//   npm run bench -- --runs 3             every section three times: each figure the range of its runs
//   npm run bench -- --save               also write the table into docs/performance.md (3 runs
//                                         unless --runs says otherwise)
// Exit 0 when every goal holds, 1 when one does not (✗ in the table), 2 when the bench failed.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { binary } from './binary.mjs';
import { bulk } from './bulk.mjs';
import { bulkShare } from './bulk-share.mjs';
import { huge } from './huge.mjs';
import { loadAverage, ROOT } from './lib.mjs';
import { paging } from './paging.mjs';
import { startup } from './startup.mjs';
import { stream } from './stream.mjs';
import { throughput } from './throughput.mjs';
import { versus } from './versus.mjs';

const SECTIONS = { startup, binary, bulk, share: bulkShare, stream, throughput, paging, versus };
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
    runs: { type: 'string' },
  },
});
const runs = Number(values.runs ?? (values.save ? 3 : 1));
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`bench: --runs ${values.runs} is not a whole number of runs of at least 1`);
  process.exit(2);
}
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
  load: loadAverage(),
};
console.log(
  `loanctl bench — ${machine.nproc} CPUs (${machine.cpu}), Node ${machine.node}, ${machine.date} UTC, load ${machine.load}`,
);

const started = Date.now();
/** Each figure's runs, by section and name, in the order first measured: [{ section, figure, goalText, runs: [{ measured, holds, load }] }]. */
const results = new Map();
let failed = false;
for (let run = 1; run <= runs; run++) {
  for (const name of chosen) {
    const sectionStart = Date.now();
    const load = loadAverage().split(' ')[0];
    console.log(`\n## ${name}${runs > 1 ? ` (run ${run} of ${runs}, load ${load})` : ''}`);
    let figures;
    try {
      const result = await SECTIONS[name]({ quick: values.quick, huge: values.huge });
      for (const line of result.lines) console.log(line);
      figures = result.figures;
    } catch (error) {
      failed = true;
      console.error(`bench: ${name} failed: ${error?.stack ?? error}`);
      figures = [{ figure: `${name} (failed)`, measured: 'error', goalText: '—', holds: false }];
    }
    for (const { figure, measured, goalText, holds } of figures) {
      const key = `${name}\u0000${figure}`;
      if (!results.has(key)) results.set(key, { section: name, figure, goalText, runs: [] });
      results.get(key).runs.push({ measured, holds, load });
    }
    console.log(`  (${((Date.now() - sectionStart) / 1000).toFixed(1)} s)`);
  }
}

// A reported figure (no goal) has holds null or left out: no mark, rather than a ✗. A figure of
// several runs holds when it held in every run.
const mark = (holds) => (holds === null || holds === undefined ? '' : holds ? '✓' : '✗');
const heldInAll = (runsOf) =>
  runsOf.some((r) => r.holds === false) ? false : runsOf.some((r) => r.holds === true) ? true : null;
const figures = [...results.values()].map((f) => ({ ...f, holds: heldInAll(f.runs) }));
const rows = figures.map((f) => [
  f.figure,
  rangeOf(f.runs.map((r) => r.measured)),
  f.goalText,
  mark(f.holds),
  rangeOf(f.runs.map((r) => r.load)),
]);
const header = ['figure', runs > 1 ? `measured (${runs} runs)` : 'measured', 'goal', 'holds', 'load'];
const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
const line = (cells) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
const table = [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
const total = ((Date.now() - started) / 1000).toFixed(0);
console.log(`\n${table}\n\n(${total} s in all)`);

/**
 * One figure over its runs: the one text of a single run; else the range of the first number of
 * each (`1.09–1.36 x`), followed by the first run's unit, the words up to its first bracket; texts
 * with no number in front, or the same number, are listed as they are.
 */
function rangeOf(texts) {
  if (new Set(texts).size === 1) return texts[0];
  const parsed = texts.map((text) => /^([\d,]+(?:\.\d+)?)\s*([^(]*)/.exec(text));
  const numbers = parsed.map((match) => Number(match?.[1].replaceAll(',', '')));
  const [low, high] = [Math.min(...numbers), Math.max(...numbers)];
  if (parsed.some((match) => match === null) || low === high) return [...new Set(texts)].join(' / ');
  const written = (value) => parsed[numbers.indexOf(value)][1];
  const unit = parsed[0][2].trim();
  return `${written(low)}–${written(high)}${unit ? ` ${unit}` : ''}`;
}

if (values.save) {
  const file = join(ROOT, 'docs', 'performance.md');
  const text = readFileSync(file, 'utf8');
  // Each kind of run has a table of its own in docs/performance.md.
  const marker = values.huge ? 'bench:huge-results' : 'bench:results';
  const block = [
    `<!-- ${marker} -->`,
    `Written by \`npm run bench -- ${process.argv.slice(2).join(' ')}\`: ${runs} run${runs === 1 ? '' : 's'} on ${machine.nproc} CPUs (${machine.cpu}), Node ${machine.node}, ${total} s. Each figure is the range of its runs, beside the 1-minute load average at the start of its section in each run.`,
    '',
    table,
    `<!-- /${marker} -->`,
  ].join('\n');
  const start = text.indexOf(`<!-- ${marker} -->`);
  const end = text.indexOf(`<!-- /${marker} -->`);
  if (start < 0 || end < start) {
    console.error(
      `bench: docs/performance.md has no <!-- ${marker} --> … <!-- /${marker} --> block to write the table into`,
    );
    process.exit(2);
  }
  writeFileSync(file, text.slice(0, start) + block + text.slice(end + `<!-- /${marker} -->`.length));
  console.log('docs/performance.md updated.');
}

const goalFailed = figures.some((f) => f.holds === false);
process.exit(failed ? 2 : goalFailed ? 1 : 0);
