// The sandbox against the usual stand-ins for a mock API, both on this machine, in this run, at 16
// connections: json-server 0.17 (issue 11) and Prism 5 in mock mode (issue 13), both
// devDependencies. Goal: the sandbox, with no reply cache, at least 5 x the faster of them in
// requests/s on
//   - a page of 20 loan requests out of 10,000 (the newest first): the sandbox's
//     GET /api/v1/loan_request?product-id=…&direction=DESC against json-server's
//     GET /loan_requests?product_id=…&_sort=id&_order=desc&_limit=20 and Prism's mock of the
//     sandbox's own request;
//   - a POST of a new user: POST /api/v1/user against json-server's POST /users, the same body,
//     and Prism's mock of POST /api/v1/user (it checks the body against the document).
// json-server serves a db.json that the bench sandbox writes from its own seeded rows, each item
// exactly as the API returns it (so both send the same bytes per item), run as its users run it:
// `json-server db.json --quiet` (every write saves the whole file, as json-server does). Prism
// mocks from the OpenAPI document the bench sandbox serves (GET /openapi.json), run as its users
// run it: `prism mock openapi.json` (it validates each request, answers from the schemas, and
// logs each request).
//
// Rounds of slices as in throughput.mjs (the sandbox's and Prism's 0.5 s, json-server's 16
// requests, see JSON_SERVER_SLICE): in each round the three GET slices back to back, in a rotating
// order and then the ceiling's, then the three POST slices the same way; a ratio is the median
// over the rounds of the sandbox's slice against the same round's faster peer slice.
// The ceiling (reported, no goal): the same page's bytes replayed from memory by the same server,
// through the same hooks and request log (GET /__bench/page): what no database and no
// serialisation would reach, so the distance between it and the sandbox is the page's own cost.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { median, NODE, ROOT, startServer, tempDir } from './lib.mjs';
import { newUserRequests, slice } from './throughput.mjs';

const CONNECTIONS = 16;
const LOANS = 10_000;
const USERS = 1_000;
/**
 * json-server's slices are a number of requests, not a time: a json-server request can take longer
 * than a whole slice on this machine (a POST saves the whole db.json, ~15 MB, and the POSTs of 16
 * connections queue behind each other), and a slice with no reply has no rate. One a connection,
 * each allowed two minutes.
 */
const JSON_SERVER_SLICE = { amount: CONNECTIONS, timeout: 120 };

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** json-server on `dbFile`, once it answers. Resolves with its URL and `stop()`. */
async function startJsonServer(dbFile, cwd) {
  const port = await freePort();
  const bin = join(ROOT, 'node_modules', 'json-server', 'lib', 'cli', 'bin.js');
  const child = spawn(NODE, [bin, dbFile, '--port', String(port), '--host', '127.0.0.1', '--quiet'], {
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  return { url, ...(await untilAnswered(child, 'json-server', `${url}/users?_limit=1`)) };
}

/** Prism's mock server on the document at `documentUrl`, once it answers. Resolves with its URL and `stop()`. */
async function startPrismMock(documentUrl, cwd) {
  const file = join(cwd, 'openapi.json');
  writeFileSync(file, await fetch(documentUrl).then((response) => response.text()));
  const port = await freePort();
  const bin = join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  const child = spawn(NODE, [bin, 'mock', file, '--port', String(port), '--host', '127.0.0.1'], {
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { PATH: process.env.PATH ?? '', HOME: cwd, NO_COLOR: '1' },
  });
  return {
    url: `http://127.0.0.1:${port}`,
    ...(await untilAnswered(child, 'prism', `http://127.0.0.1:${port}/openapi-bench-probe`)),
  };
}

/** Waits until `probe` answers at all (any status), then gives `stop()` for the child. */
async function untilAnswered(child, name, probe) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}) before answering`);
    const answered = await fetch(probe).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) throw new Error(`${name} did not answer in 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** Waits until `url` answers: the POSTs autocannon left in flight are done by then (one thread each). */
async function settled(url, headers) {
  await fetch(url, { headers }).then((response) => response.arrayBuffer());
}

const PEERS = ['json-server', 'prism'];
const PEER_NAMES = { 'json-server': 'json-server 0.17', prism: 'Prism 5 (mock)' };

export async function versus({ quick }) {
  const rounds = quick ? 3 : 10;
  const seconds = 0.5;
  const work = tempDir('versus');
  const dbFile = join(work.dir, 'db.json');
  let sandbox;
  let jsonServer;
  let prism;
  try {
    sandbox = await startServer({ seedLoans: LOANS, seedUsers: USERS, exportJson: dbFile });
    jsonServer = await startJsonServer(dbFile, work.dir);
    prism = await startPrismMock(`${sandbox.url}/openapi.json`, work.dir);
    const auth = { authorization: `Bearer ${sandbox.api_key}` };
    const listPath = `/api/v1/loan_request?product-id=${sandbox.product_id}&direction=DESC`;
    const postUser = { method: 'POST', headers: { ...auth, 'content-type': 'application/json' } };
    const targets = {
      'sandbox GET': { url: `${sandbox.url}${listPath}`, method: 'GET', headers: auth },
      'json-server GET': {
        url: `${jsonServer.url}/loan_requests?product_id=${sandbox.product_id}&_sort=id&_order=desc&_limit=20`,
        method: 'GET',
        ...JSON_SERVER_SLICE,
      },
      'prism GET': { url: `${prism.url}${listPath}`, method: 'GET', headers: auth },
      // The same page's bytes replayed from memory by the same server (bench/sandbox-server.ts).
      'ceiling GET': { url: `${sandbox.url}/__bench/page`, method: 'GET', headers: auth },
      'sandbox POST': { url: `${sandbox.url}/api/v1/user`, ...postUser, requests: newUserRequests() },
      'json-server POST': {
        url: `${jsonServer.url}/users`,
        method: 'POST',
        ...JSON_SERVER_SLICE,
        headers: { 'content-type': 'application/json' },
        requests: newUserRequests(),
      },
      'prism POST': { url: `${prism.url}/api/v1/user`, ...postUser, requests: newUserRequests() },
    };
    // The sandbox's and json-server's pages hold the same 20 loan requests; Prism's is a success.
    const pages = await Promise.all(
      ['sandbox GET', 'json-server GET', 'prism GET'].map((name) =>
        fetch(targets[name].url, { headers: targets[name].headers }).then((response) => response.json()),
      ),
    );
    const ids = [pages[0].data.loan_requests, pages[1]].map((items) => items.map((item) => item.id).join(','));
    if (ids[0] !== ids[1] || pages[1].length !== 20) throw new Error(`the two pages differ: ${ids[0]} / ${ids[1]}`);
    if (pages[2].status !== 'success') throw new Error(`prism's page is not a success: ${JSON.stringify(pages[2])}`);

    const settle = (name) =>
      settled(
        name.startsWith('sandbox') || name.startsWith('ceiling')
          ? `${sandbox.url}/__bench/empty`
          : name.startsWith('prism')
            ? targets['prism GET'].url
            : targets['json-server GET'].url,
        targets['prism GET'].headers,
      );
    for (const [name, target] of Object.entries(targets)) {
      await slice(name, { ...target, ...(target.amount && { amount: 4 }) }, 4, 0.5);
      await settle(name);
    }

    const samples = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
    const servers = ['sandbox', ...PEERS];
    for (let round = 0; round < rounds; round++) {
      const shift = round % servers.length;
      const order = [...servers.slice(shift), ...servers.slice(0, shift)];
      for (const kind of ['GET', 'POST']) {
        for (const server of kind === 'GET' ? [...order, 'ceiling'] : order) {
          const name = `${server} ${kind}`;
          samples[name].push(await slice(name, targets[name], CONNECTIONS, seconds));
          await settle(name);
        }
      }
    }

    const sizes = pages.map((page) => Buffer.byteLength(JSON.stringify(page)).toLocaleString('en-GB'));
    const lines = [
      `  ${rounds} rounds at ${CONNECTIONS} connections (slices: the sandbox's and Prism's ${seconds} s, json-server's ${JSON_SERVER_SLICE.amount} requests); json-server ${LOANS.toLocaleString('en-GB')} loan requests and ${USERS.toLocaleString('en-GB')} users in db.json; Prism mocks from the sandbox's /openapi.json`,
    ];
    lines.push(
      `  a GET's reply: sandbox ${sizes[0]} B, json-server ${sizes[1]} B, Prism ${sizes[2]} B (its mock's page)`,
    );
    for (const [name, slices] of Object.entries(samples)) {
      const rps = slices.map((s) => s.rps);
      lines.push(
        `  ${name.padEnd(17)} ${String(Math.round(median(rps))).padStart(6)} req/s  p99 ${median(slices.map((s) => s.p99)).toFixed(0)} ms  (slices ${Math.round(Math.min(...rps))}–${Math.round(Math.max(...rps))})`,
      );
    }
    const figures = ['GET', 'POST'].flatMap((kind) => {
      const ours = samples[`sandbox ${kind}`].map((s) => s.rps);
      const peer = (name, round) => samples[`${name} ${kind}`][round].rps;
      const ratioTo = (rate) => median(ours.map((value, round) => value / rate(round)));
      const what = kind === 'GET' ? 'GET 20 of 10,000 loan requests' : 'POST a new user';
      const faster = (round) => Math.max(...PEERS.map((name) => peer(name, round)));
      const fastest = ratioTo(faster);
      lines.push(
        `  ${what}: ${PEERS.map((name) => `${ratioTo((round) => peer(name, round)).toFixed(1)} x ${PEER_NAMES[name]}`).join(', ')}`,
      );
      const ceiling = samples[`ceiling ${kind}`]?.map((s) => s.rps);
      return [
        {
          figure: `${what}: sandbox / faster of ${PEERS.map((name) => PEER_NAMES[name]).join(' and ')}, ${CONNECTIONS} conn`,
          measured: `${fastest.toFixed(1)} x (${Math.round(median(ours))} vs ${PEERS.map((name) => `${Math.round(median(samples[`${name} ${kind}`].map((s) => s.rps)))}`).join(' / ')} req/s)`,
          goalText: '≥ 5 x',
          holds: fastest >= 5,
        },
        // What the same server reaches with no database and no serialisation: the goal's ceiling.
        ...(ceiling
          ? [
              {
                figure: `  the same page's bytes from memory (same server, hooks and request log) / faster peer`,
                measured: `${median(ceiling.map((value, round) => value / faster(round))).toFixed(1)} x (${Math.round(median(ceiling))} req/s)`,
                goalText: '— (reported)',
                holds: null,
              },
            ]
          : []),
      ];
    });
    return { lines, figures };
  } finally {
    await prism?.stop();
    await jsonServer?.stop();
    await sandbox?.stop();
    work.cleanup();
  }
}
