// The look-up goal (`npm run bench -- --huge`, or `--huge --only lookup`): a borrower by e-mail or
// phone at 100,000 and 1,000,000 borrowers (--quick: 100,000 only), in an organisation whose
// borrowers were created over the past year (bench/sandbox-server.ts --huge), oldest first. The
// cases users hit, each first in a fresh home (no local index) and then asked again:
//   - the newest borrower by e-mail: on the first page of those created since yesterday;
//   - a borrower created two days ago by e-mail: not on that page, and near the end of the list,
//     so its first look-up walks nearly the whole list from page 1 (the worst e-mail case);
//   - `user find --phone`: its first look-up walks the whole list;
//   - a 10-row `loan create --from` keyed by e-mails spread over the year.
// Requests are counted from --debug's request lines in a run of their own; seconds are of runs
// without --debug.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cliEnv, NODE, startServer, tempDir } from './lib.mjs';

const count = (n) => n.toLocaleString('en-GB');
const FIRST_S = 10;
const AGAIN_S = 1;
/** The sandbox's page of users (src/sandbox/handlers/users.ts). */
const PAGE = 50;

function cli(env, argv, debug = false) {
  const started = process.hrtime.bigint();
  const result = spawnSync(NODE, [BIN, ...argv, ...(debug ? ['--debug'] : [])], {
    env,
    encoding: 'utf8',
    timeout: 600_000,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`${argv.join(' ')}: exit ${result.status}: ${result.stderr.slice(-800)}`);
  const requests = result.stderr.split('\n').filter((line) => /^debug: > (GET|POST) /.test(line)).length;
  return { seconds, requests, stdout: result.stdout };
}

/** A command run in a fresh home (no index): timed, then counted in another fresh home. */
function firstRun(server, argv) {
  const homes = [tempDir('lookup-first'), tempDir('lookup-first-counted')];
  try {
    const timed = cli(cliEnv(server, homes[0].dir), argv);
    const counted = cli(cliEnv(server, homes[1].dir), argv, true);
    return { ...timed, requests: counted.requests };
  } finally {
    for (const home of homes) home.cleanup();
  }
}

const emailOf = (stdout) => JSON.parse(stdout.trim()).email;

export async function lookup({ quick }) {
  const sizes = quick ? [100_000] : [100_000, 1_000_000];
  const lines = [];
  const figures = [];
  for (const size of sizes) {
    const server = await startServer({ huge: size });
    const homes = [];
    const home = () => {
      const made = tempDir(`lookup-${size}`);
      homes.push(made);
      return cliEnv(server, made.dir);
    };
    try {
      const n = count(size);
      const pages = Math.ceil(size / PAGE);
      const show = (number) => ['user', 'show', `borrower-${number}@spread.example`, '-o', 'json'];

      // The newest: created today, on the first page of those created since yesterday.
      const newest = firstRun(server, show(size));
      if (emailOf(newest.stdout) !== `borrower-${size}@spread.example`) throw new Error('user show: not the newest');

      // Created two days ago (363 of the year's 365 days after the oldest): not on that page, and
      // on one of the last pages of the list, which the first look-up walks to from page 1.
      const recent = 1 + Math.floor((size * 363) / 365);
      const recentPage = Math.ceil(recent / PAGE);
      const recentEnv = home();
      const recentFirst = cli(recentEnv, show(recent));
      const recentAgain = cli(recentEnv, show(recent));
      const recentCounted = cli(recentEnv, show(recent), true);
      if (emailOf(recentAgain.stdout) !== `borrower-${recent}@spread.example`) throw new Error('user show: not found');

      // By phone (the oldest's: one borrower has it): the first look-up walks the whole list.
      const phone = ['user', 'find', '--phone', '08000000001', '-o', 'ndjson'];
      const phoneEnv = home();
      const phoneFirst = cli(phoneEnv, phone);
      const phoneAgain = cli(phoneEnv, phone);
      const phoneCounted = cli(phoneEnv, phone, true);
      if (emailOf(phoneAgain.stdout) !== 'borrower-1@spread.example')
        throw new Error('user find --phone: not the oldest');

      // Ten e-mails spread over the year, the oldest first; a fresh home for the first run.
      const emails = Array.from({ length: 10 }, (_, k) => `borrower-${1 + Math.floor((k * size) / 10)}@spread.example`);
      // Two files (the second's rows differ): each run has its own journal and sends every row.
      const files = tempDir(`lookup-files-${size}`);
      homes.push(files);
      const fileOf = (name) => {
        const file = join(files.dir, `${name}.csv`);
        const rows = emails.map((e, i) => `${e},${5000 + i},${name} ${i}`);
        writeFileSync(file, `user,amount,purpose\n${rows.join('\n')}\n`);
        return file;
      };
      const bulkEnv = home();
      const bulkFirst = cli(bulkEnv, ['loan', 'create', '--from', fileOf('first')]);
      const bulkAgain = cli(bulkEnv, ['loan', 'create', '--from', fileOf('again')], true);

      const s = (run, digits = 2) => `${run.seconds.toFixed(digits)} s`;
      const req = (run) => `${run.requests} request${run.requests === 1 ? '' : 's'}`;
      lines.push(
        `  ${n}: user show <newest>: first ${s(newest)} (${req(newest)})`,
        `  ${n}: user show <created two days ago, page ${count(recentPage)} of ${count(pages)}>: first ${s(recentFirst)}, again ${s(recentAgain)} (${req(recentCounted)})`,
        `  ${n}: user find --phone <oldest's>: first ${s(phoneFirst)} (the whole list), again ${s(phoneAgain)} (${req(phoneCounted)})`,
        `  ${n}: loan create --from 10 rows over the year: first ${s(bulkFirst, 1)}, again ${req(bulkAgain)}`,
      );
      const first = (run) => ({ goalText: `≤ ${FIRST_S} s at 1,000,000`, holds: run.seconds <= FIRST_S });
      const again = (run) => ({ goalText: `≤ ${AGAIN_S} s`, holds: run.seconds <= AGAIN_S });
      figures.push(
        {
          figure: `look-up of the newest by e-mail, ${n} borrowers, first (no index)`,
          measured: `${s(newest)}, ${req(newest)}`,
          ...first(newest),
        },
        {
          figure: `look-up by e-mail of one created two days ago, ${n}, first (no index: pages 1 to ${count(recentPage)} of ${count(pages)})`,
          measured: s(recentFirst),
          ...first(recentFirst),
        },
        {
          figure: `the same, asked again, ${n}`,
          measured: `${s(recentAgain)}, ${req(recentCounted)}`,
          ...again(recentAgain),
        },
        {
          figure: `user find --phone, ${n}, first (no index: the whole list)`,
          measured: s(phoneFirst),
          ...first(phoneFirst),
        },
        {
          figure: `user find --phone, again, ${n}`,
          measured: `${s(phoneAgain)}, ${req(phoneCounted)}`,
          ...again(phoneAgain),
        },
        {
          figure: `loan create --from 10 rows keyed over a year, ${n}, first (no index)`,
          measured: s(bulkFirst, 1),
          ...first(bulkFirst),
        },
        {
          figure: `the same file again, ${n}: requests (10 of them the POSTs)`,
          measured: `${bulkAgain.requests}`,
          goalText: '— (reported)',
        },
      );
    } finally {
      await server.stop();
      for (const made of homes) made.cleanup();
    }
  }
  return { lines, figures };
}
