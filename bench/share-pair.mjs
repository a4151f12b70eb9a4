// Two builds of loanctl side by side on the bulk share (issue 24's goal; bench/bulk-share.mjs
// measures one): one sandbox, warmed by a capacity slice, then slice, run, slice, run… with the
// builds alternating (A B, then B A, …). Each run's share is its rows/s over the mean of the two
// slices beside it. One 10,000-row run moves ±8 % on a shared machine; a pair of builds compared
// this way, ±2 % (bench/README.md, "Bulk share", round seven). For a change to the client's cost a row.
// The rows default to the goal's (SHARE_ROWS); `--rows 10000` is a quicker look.
//
//   npx node bench/share-pair.mjs DIR_A DIR_B [--rounds 6] [--rows N]
//
// Each DIR is a checkout whose bundle is built (`npm run build`), e.g. a git worktree of the change
// beside one of main, or a script run as loanctl's bin is, e.g. bench/bare-client.mjs (the floor of
// a Node client). Prints each one's shares and median, and the median of the rounds' B/A ratios.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loanctlFrom, ndjson, user } from './bulk.mjs';
import { postCapacity, SHARE_ROWS, shareBetween } from './bulk-share.mjs';
import { median, startServer, tempDir } from './lib.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '6' }, rows: { type: 'string', default: String(SHARE_ROWS) } },
});
if (positionals.length !== 2) {
  process.stderr.write('usage: npx node bench/share-pair.mjs DIR_A DIR_B [--rounds 6] [--rows N]\n');
  process.exit(2);
}
const binOf = (dir) => (/\.m?js$/.test(dir) ? resolve(dir) : join(resolve(dir), 'bin', 'loanctl.js'));
const builds = positionals.map((dir) => ({ dir, bin: binOf(dir), shares: [] }));
const rounds = Number(values.rounds);
const rows = Number(values.rows);
const SLICE_SECONDS = 4;

const home = tempDir('share-pair');
const server = await startServer();
try {
  await postCapacity(server, 'warm', SLICE_SECONDS);
  let before = (await postCapacity(server, 'slice', SLICE_SECONDS)).rps;
  for (let round = 0; round < rounds; round++) {
    for (const [index, build] of (round % 2 ? [...builds].reverse() : builds).entries()) {
      const file = join(home.dir, `${round}-${index}.ndjson`);
      writeFileSync(file, ndjson(Array.from({ length: rows }, (_, i) => user(`pair${round}-${index}`, i + 1))));
      const run = await loanctlFrom(server, file, home.dir, { resultsFile: join(home.dir, 'results'), bin: build.bin });
      if (run.counts.success !== rows) throw new Error(`${build.dir}: ${run.summary}`);
      const after = (await postCapacity(server, `slice${round}-${index}`, SLICE_SECONDS)).rps;
      build.shares.push(shareBetween(rows / (run.elapsed / 1000), before, after));
      before = after;
    }
  }
  const percent = (value) => `${value.toFixed(1)} %`;
  for (const { dir, shares } of builds) {
    console.log(
      `${dir}: median ${percent(median(shares))} of the sandbox's POST capacity (${shares.map(percent).join(', ')})`,
    );
  }
  const ratios = builds[1].shares.map((share, round) => share / builds[0].shares[round]);
  console.log(
    `B / A, round by round: median x${median(ratios).toFixed(3)} (${ratios.map((r) => r.toFixed(2)).join(', ')})`,
  );
} finally {
  await server.stop();
  home.cleanup();
}
