// The sandbox against json-server 0.17 (a devDependency), the usual stand-in for a mock API (issue
// 11): both on this machine, in this run, serving the same data, at 16 connections. Goal: the
// sandbox, with no reply cache, at least 5 x json-server's requests/s on
//   - a page of 20 loan requests out of 10,000 (the newest first): the sandbox's
//     GET /api/v1/loan_request?product-id=…&direction=DESC against json-server's
//     GET /loan_requests?product_id=…&_sort=id&_order=desc&_limit=20;
//   - a POST of a new user: POST /api/v1/user against POST /users, the same body.
// json-server serves a db.json that the bench sandbox writes from its own seeded rows, each item
// exactly as the API returns it (so both send the same bytes per item), run as its users run it:
// `json-server db.json --quiet` (every write saves the whole file, as json-server does).
//
// Rounds of slices as in throughput.mjs (the sandbox's 0.5 s, json-server's 16 requests, see
// JSON_SERVER_SLICE): in each round the two GET slices back to back,
// either first in turn, then the two POST slices the same way; a ratio is the median over the
// rounds of the sandbox's slice against the same round's json-server slice.
import { spawn } from 'node:child_process';
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
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`json-server exited (${child.exitCode}) before answering`);
    const answered = await fetch(`${url}/users?_limit=1`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) throw new Error('json-server did not answer in 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
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

export async function versus({ quick }) {
  const rounds = quick ? 3 : 10;
  const seconds = 0.5;
  const work = tempDir('versus');
  const dbFile = join(work.dir, 'db.json');
  let sandbox;
  let jsonServer;
  try {
    sandbox = await startServer({ seedLoans: LOANS, seedUsers: USERS, exportJson: dbFile });
    jsonServer = await startJsonServer(dbFile, work.dir);
    const auth = { authorization: `Bearer ${sandbox.api_key}` };
    const targets = {
      'sandbox GET': {
        url: `${sandbox.url}/api/v1/loan_request?product-id=${sandbox.product_id}&direction=DESC`,
        method: 'GET',
        headers: auth,
      },
      'json-server GET': {
        url: `${jsonServer.url}/loan_requests?product_id=${sandbox.product_id}&_sort=id&_order=desc&_limit=20`,
        method: 'GET',
        ...JSON_SERVER_SLICE,
      },
      'sandbox POST': {
        url: `${sandbox.url}/api/v1/user`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        requests: newUserRequests(),
      },
      'json-server POST': {
        url: `${jsonServer.url}/users`,
        method: 'POST',
        ...JSON_SERVER_SLICE,
        headers: { 'content-type': 'application/json' },
        requests: newUserRequests(),
      },
    };
    // Both pages hold the same 20 loan requests.
    const pages = await Promise.all(
      [targets['sandbox GET'], targets['json-server GET']].map((t) =>
        fetch(t.url, { headers: t.headers }).then((response) => response.json()),
      ),
    );
    const ids = [pages[0].data.loan_requests, pages[1]].map((items) => items.map((item) => item.id).join(','));
    if (ids[0] !== ids[1] || pages[1].length !== 20) throw new Error(`the two pages differ: ${ids[0]} / ${ids[1]}`);

    for (const [name, target] of Object.entries(targets)) {
      await slice(name, { ...target, ...(target.amount && { amount: 4 }) }, 4, 0.5);
    }
    await settled(targets['json-server GET'].url);

    const samples = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      const flip = round % 2 === 1;
      for (const kind of ['GET', 'POST']) {
        const pair = flip ? [`json-server ${kind}`, `sandbox ${kind}`] : [`sandbox ${kind}`, `json-server ${kind}`];
        for (const name of pair) {
          samples[name].push(await slice(name, targets[name], CONNECTIONS, seconds));
          await settled(name.startsWith('sandbox') ? `${sandbox.url}/__bench/empty` : targets['json-server GET'].url);
        }
      }
    }

    const lines = [
      `  ${rounds} rounds at ${CONNECTIONS} connections (slices: the sandbox's ${seconds} s, json-server's ${JSON_SERVER_SLICE.amount} requests); json-server ${LOANS.toLocaleString('en-GB')} loan requests and ${USERS.toLocaleString('en-GB')} users in db.json`,
    ];
    for (const [name, slices] of Object.entries(samples)) {
      const rps = slices.map((s) => s.rps);
      lines.push(
        `  ${name.padEnd(17)} ${String(Math.round(median(rps))).padStart(6)} req/s  p99 ${median(slices.map((s) => s.p99)).toFixed(0)} ms  (slices ${Math.round(Math.min(...rps))}–${Math.round(Math.max(...rps))})`,
      );
    }
    const figures = ['GET', 'POST'].map((kind) => {
      const ours = samples[`sandbox ${kind}`].map((s) => s.rps);
      const theirs = samples[`json-server ${kind}`].map((s) => s.rps);
      const ratio = median(ours.map((value, round) => value / theirs[round]));
      return {
        figure: `${kind === 'GET' ? 'GET 20 of 10,000 loan requests' : 'POST a new user'}: sandbox / json-server 0.17, ${CONNECTIONS} conn`,
        measured: `${ratio.toFixed(1)} x (${Math.round(median(ours))} vs ${Math.round(median(theirs))} req/s)`,
        goalText: '≥ 5 x',
        holds: ratio >= 5,
      };
    });
    return { lines, figures };
  } finally {
    await jsonServer?.stop();
    await sandbox?.stop();
    work.cleanup();
  }
}
