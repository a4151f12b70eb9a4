// The look-up goal (`npm run bench -- --huge`, or `--huge --only lookup`): a borrower by e-mail or
// phone at 100,000 and 1,000,000 borrowers (--quick: 100,000 only), the OLDEST of an organisation
// whose borrowers were created over the past year (bench/sandbox-server.ts --huge), first with no
// local index (a fresh home) and then asked again; and the newest, first, whose walk reads the
// whole list (the worst first look-up): `user show EMAIL`, `user find --phone`, and a
// 10-row `loan create --from` keyed by e-mails spread over the year. Requests are counted from
// --debug's request lines in a run of their own; seconds are of runs without --debug.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cliEnv, NODE, startServer, tempDir } from './lib.mjs';

const count = (n) => n.toLocaleString('en-GB');
const FIRST_S = 10;
const AGAIN_S = 1;

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

export async function lookup({ quick }) {
  const sizes = quick ? [100_000] : [100_000, 1_000_000];
  const lines = [];
  const figures = [];
  for (const size of sizes) {
    const server = await startServer({ huge: size });
    const home = tempDir(`lookup-${size}`);
    try {
      const env = cliEnv(server, home.dir);
      const oldest = 'borrower-1@spread.example';
      const show = ['user', 'show', oldest, '-o', 'json'];
      // The newest first, in a home of its own: its e-mail's walk reads the whole list.
      const newestHome = tempDir(`lookup-newest-${size}`);
      const newest = cli(cliEnv(server, newestHome.dir), [
        'user',
        'show',
        `borrower-${size}@spread.example`,
        '-o',
        'json',
      ]);
      newestHome.cleanup();
      const first = cli(env, show);
      const phone = ['user', 'find', '--phone', '08000000001', '-o', 'ndjson'];
      // The e-mail's walk above stopped at the oldest: this first one walks the rest of the list.
      const phoneFirst = cli(env, phone);
      const phoneAgain = cli(env, phone);
      const phoneCounted = cli(env, phone, true);
      // Asked again once the index holds every borrower (read and checked whole).
      const again = cli(env, show);
      const againCounted = cli(env, show, true);
      if (JSON.parse(again.stdout).email !== oldest) throw new Error('user show: not the oldest borrower');
      if (JSON.parse(phoneAgain.stdout.trim()).email !== oldest) throw new Error('user find --phone: not the oldest');

      // Ten e-mails spread over the year, the oldest first; a fresh home for the first run.
      const emails = Array.from({ length: 10 }, (_, k) => `borrower-${1 + Math.floor((k * size) / 10)}@spread.example`);
      // Two files (the second's rows differ): each run has its own journal and sends every row.
      const fileOf = (name) => {
        const file = join(home.dir, `${name}.csv`);
        const rows = emails.map((e, i) => `${e},${5000 + i},${name} ${i}`);
        writeFileSync(file, `user,amount,purpose\n${rows.join('\n')}\n`);
        return file;
      };
      const fresh = tempDir(`lookup-bulk-${size}`);
      const bulkEnv = cliEnv(server, fresh.dir);
      const bulkFirst = cli(bulkEnv, ['loan', 'create', '--from', fileOf('first')]);
      const bulkAgain = cli(bulkEnv, ['loan', 'create', '--from', fileOf('again')], true);
      fresh.cleanup();

      const n = count(size);
      lines.push(
        `  ${n}: user show <newest>, first (the whole list walked): ${newest.seconds.toFixed(2)} s`,
        `  ${n}: user show <oldest>: first ${first.seconds.toFixed(2)} s, again ${again.seconds.toFixed(2)} s (${againCounted.requests} request)`,
        `  ${n}: user find --phone <oldest's>: first ${phoneFirst.seconds.toFixed(2)} s, again ${phoneAgain.seconds.toFixed(2)} s (${phoneCounted.requests} requests)`,
        `  ${n}: loan create --from 10 rows over the year: first ${bulkFirst.seconds.toFixed(1)} s, again ${bulkAgain.requests} requests`,
      );
      figures.push(
        {
          figure: `look-up of the newest by e-mail, ${n} borrowers, first (the whole list)`,
          measured: `${newest.seconds.toFixed(2)} s`,
          goalText: `≤ ${FIRST_S} s at 1,000,000`,
          holds: newest.seconds <= FIRST_S,
        },
        {
          figure: `look-up of the oldest by e-mail, ${n} borrowers, first (no index)`,
          measured: `${first.seconds.toFixed(2)} s`,
          goalText: `≤ ${FIRST_S} s at 1,000,000`,
          holds: first.seconds <= FIRST_S,
        },
        {
          figure: `the same, asked again, ${n}`,
          measured: `${again.seconds.toFixed(2)} s, ${againCounted.requests} request`,
          goalText: `≤ ${AGAIN_S} s`,
          holds: again.seconds <= AGAIN_S,
        },
        {
          figure: `user find --phone <oldest's>, again, ${n}`,
          measured: `${phoneAgain.seconds.toFixed(2)} s, ${phoneCounted.requests} requests`,
          goalText: `≤ ${AGAIN_S} s`,
          holds: phoneAgain.seconds <= AGAIN_S,
        },
        {
          figure: `loan create --from 10 rows keyed over a year, ${n}, first (no index)`,
          measured: `${bulkFirst.seconds.toFixed(1)} s`,
          goalText: `≤ ${FIRST_S} s at 1,000,000`,
          holds: bulkFirst.seconds <= FIRST_S,
        },
        {
          figure: `the same file again, ${n}: requests (10 of them the POSTs)`,
          measured: `${bulkAgain.requests}`,
          goalText: '— (reported)',
        },
      );
    } finally {
      await server.stop();
      home.cleanup();
    }
  }
  return { lines, figures };
}
