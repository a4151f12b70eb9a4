// The sandbox against the usual stand-ins for a mock API, all on this
// machine, in this run, at 16 connections, measured from outside: requests per second, and requests
// per CPU-second of the server's own process (its user + system time read from /proc; the load
// generator's is not counted). The machine's 2 cores are shared by the server and autocannon, so
// req/s also measures who got the cores; per CPU-second is what a request costs the server.
// Goal (docs/performance.md): the sandbox, with no reply cache, ahead of every peer at its fastest settings
// per CPU-second, on
//   - a page of 20 loan requests out of 10,000, the newest first, the key checked: the sandbox's
//     GET /api/v1/loan_request?product-id=…&direction=DESC, the mocks' answer to the same request,
//     json-server's GET /loan_requests?product_id=…&_sort=id&_order=desc&_limit=20;
//   - a POST of a new user: POST /api/v1/user (json-server: POST /users), the same body.
// The peers, each run as its users run it (bench/README.md says why each setting):
//   - Prism 5's mock, `prism mock openapi.json`, logging each request as it does by default, and
//     silenced (`-v silent`, its fastest setting);
//   - Mockoon CLI 9 on the same document, `mockoon-cli start --data openapi.json
//     --disable-log-to-file --disable-admin-api`;
//   - json-server 0.17, `json-server db.json --quiet`, on 100 and on 10,000 loan requests.
// Prism and Mockoon mock from the OpenAPI document the bench sandbox serves (GET /openapi.json):
// a page of one made-up loan request. json-server serves a db.json written from the sandbox's own
// seeded rows, each item exactly as the API returns it.
//
// A slice is a number of requests (about 1 s of that target's rate, taken from the warm-up; at
// least one a connection), so that every request of a slice is answered inside it and the server's
// CPU over the slice is that of exactly those requests. The CPU is read before the slice and after
// one more GET of the same server has been answered (what a server does after its replies, such as
// writing its log, is done by then). In each round the GET slices of every server run back
// to back in a rotating order, then the ceiling's, then the POST slices the same way; a ratio is the
// median over the rounds of the sandbox's slice against the same round's best peer.
// The ceiling (reported, no goal): the same page's bytes replayed from memory by the same server,
// through the same hooks and request log (GET /__bench/page): what no database and no
// serialisation would reach, so the distance between it and the sandbox is the page's own cost.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { cpuSeconds, median, NODE, ROOT, startServer, tempDir } from './lib.mjs';
import { newUserRequests, slice } from './throughput.mjs';

const CONNECTIONS = 16;
const LOANS = 10_000;
const USERS = 1_000;
/** json-server's small database: the newest 100 loan requests and 100 users of the big one. */
const SMALL = 100;
/**
 * A slice's time at its server's rate. Slices of 0.5 s cost a server up to 1.3–2 x the CPU a request
 * of a long run did (each slice opens its connections, ramps up and down, and follows the other
 * servers' slices): the sandbox's list GET, slices of 176 requests against 1,600, at load ~13.
 */
const SLICE_SECONDS = 1;
/**
 * Seconds a request may take: a json-server POST saves the whole db.json (~15 MB at 10,000 loan
 * requests), and the POSTs of 16 connections queue behind each other.
 */
const REQUEST_TIMEOUT = 120;

/** The peers, in the order they start and are printed; `kind` says which requests they take. */
const PEERS = {
  prism: { kind: 'mock', name: 'Prism 5 mock', start: (files, cwd) => startPrism(files.document, cwd, []) },
  'prism -v silent': {
    kind: 'mock',
    name: 'Prism 5 mock -v silent',
    start: (files, cwd) => startPrism(files.document, cwd, ['--verboseLevel', 'silent']),
  },
  mockoon: { kind: 'mock', name: 'Mockoon CLI 9', start: (files, cwd) => startMockoon(files.document, cwd) },
  'json-server 100': {
    kind: 'json-server',
    name: `json-server 0.17, ${SMALL} rows`,
    start: (files, cwd) => startJsonServer(files.small, cwd),
  },
  'json-server 10,000': {
    kind: 'json-server',
    name: `json-server 0.17, ${LOANS.toLocaleString('en-GB')} rows`,
    start: (files, cwd) => startJsonServer(files.big, cwd),
  },
};

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

async function startPrism(documentFile, cwd, flags) {
  const port = await freePort();
  const bin = join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  const args = [bin, 'mock', documentFile, '--port', String(port), '--host', '127.0.0.1', ...flags];
  return startChild('prism', args, cwd, port, '/openapi-bench-probe');
}

async function startMockoon(documentFile, cwd) {
  const port = await freePort();
  const bin = join(ROOT, 'node_modules', '@mockoon', 'cli', 'bin', 'run.js');
  const args = [bin, 'start', '--data', documentFile, '--port', String(port), '--hostname', '127.0.0.1'];
  return startChild('mockoon', [...args, '--disable-log-to-file', '--disable-admin-api'], cwd, port, '/');
}

async function startJsonServer(dbFile, cwd) {
  const port = await freePort();
  const bin = join(ROOT, 'node_modules', 'json-server', 'lib', 'cli', 'bin.js');
  const args = [bin, dbFile, '--port', String(port), '--host', '127.0.0.1', '--quiet'];
  return startChild('json-server', args, cwd, port, '/users?_limit=1');
}

/** `node ARGS` in `cwd`, once `probe` answers at all (any status). Resolves with its URL, pid and `stop()`. */
async function startChild(name, args, cwd, port, probe) {
  const child = spawn(NODE, args, {
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { PATH: process.env.PATH ?? '', HOME: cwd, NO_COLOR: '1' },
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}) before answering`);
    const answered = await fetch(`${url}${probe}`).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) throw new Error(`${name} did not answer in 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** json-server's small database, cut from the big one: the newest `SMALL` loan requests and users. */
function writeSmallDb(bigFile, smallFile) {
  const db = JSON.parse(readFileSync(bigFile, 'utf8'));
  writeFileSync(
    smallFile,
    JSON.stringify({ users: db.users.slice(-SMALL), loan_requests: db.loan_requests.slice(-SMALL) }),
  );
}

/** The two operations of one server: their URLs, headers and bodies. */
function targetsOf(server, { listPath, auth, productId }) {
  const json = { 'content-type': 'application/json' };
  const common = { timeout: REQUEST_TIMEOUT };
  if (server.kind === 'json-server') {
    return {
      GET: {
        ...common,
        url: `${server.url}/loan_requests?product_id=${productId}&_sort=id&_order=desc&_limit=20`,
        method: 'GET',
      },
      POST: { ...common, url: `${server.url}/users`, method: 'POST', headers: json, requests: newUserRequests() },
    };
  }
  return {
    GET: {
      ...common,
      url: `${server.url}${server.kind === 'ceiling' ? '/__bench/page' : listPath}`,
      method: 'GET',
      headers: auth,
    },
    POST: {
      ...common,
      url: `${server.url}/api/v1/user`,
      method: 'POST',
      headers: { ...auth, ...json },
      requests: newUserRequests(),
    },
  };
}

/**
 * One measured slice of `server`'s `kind` of request: `amount` requests at 16 connections, and the
 * server's CPU seconds from just before the first to the answer of one more GET after the last.
 */
async function measure(server, kind, amount) {
  const before = cpuSeconds(server.pid);
  const result = await slice(`${server.key} ${kind}`, { ...server[kind], amount }, CONNECTIONS, SLICE_SECONDS);
  await settle(server);
  const cpu = cpuSeconds(server.pid) - before;
  if (!(cpu > 0)) {
    throw new Error(`${server.key}: no CPU time measured over ${result.requests} requests (pid ${server.pid})`);
  }
  return { ...result, cpu, perCpu: result.requests / cpu };
}

/**
 * The slice's number of requests for `server`'s `kind`: about SLICE_SECONDS at the faster of two
 * warm-up slices of a second each (a burst of the machine's load can halve one), at least one a
 * connection.
 */
async function sliceAmount(server, kind) {
  let rate = 0;
  for (let warmup = 0; warmup < 2; warmup++) {
    rate = Math.max(rate, (await slice(`${server.key} ${kind}`, server[kind], CONNECTIONS, 1)).rps);
    await settle(server);
  }
  return Math.max(1, Math.round((rate * SLICE_SECONDS) / CONNECTIONS)) * CONNECTIONS;
}

/**
 * Waits for the reply to one more GET of `server`: the requests a slice left in flight, and what the
 * server does after its replies, are done by then (each server serves from one event loop).
 */
async function settle(server) {
  await fetch(server.GET.url, { headers: server.GET.headers }).then((response) => response.arrayBuffer());
}

const count = (value) => Math.round(value).toLocaleString('en-GB');

export async function versus({ quick }) {
  const rounds = quick ? 3 : 10;
  const work = tempDir('versus');
  const files = {
    document: join(work.dir, 'openapi.json'),
    big: join(work.dir, 'db.json'),
    small: join(work.dir, `db-${SMALL}.json`),
  };
  const servers = {};
  try {
    const sandbox = await startServer({ seedLoans: LOANS, seedUsers: USERS, exportJson: files.big });
    servers.sandbox = { kind: 'sandbox', name: 'sandbox', ...sandbox };
    servers.ceiling = { kind: 'ceiling', name: 'the page from memory', url: sandbox.url, pid: sandbox.pid };
    writeSmallDb(files.big, files.small);
    writeFileSync(files.document, await fetch(`${sandbox.url}/openapi.json`).then((response) => response.text()));
    for (const [key, peer] of Object.entries(PEERS)) {
      servers[key] = { kind: peer.kind, name: peer.name, ...(await peer.start(files, work.dir)) };
    }
    const context = {
      listPath: `/api/v1/loan_request?product-id=${sandbox.product_id}&direction=DESC`,
      auth: { authorization: `Bearer ${sandbox.api_key}` },
      productId: sandbox.product_id,
    };
    for (const [key, server] of Object.entries(servers)) Object.assign(server, { key }, targetsOf(server, context));
    const pageSizes = await checkPages(servers);

    const measured = ['GET', 'POST'].flatMap((kind) =>
      Object.keys(servers)
        .filter((key) => kind === 'GET' || key !== 'ceiling')
        .map((key) => ({ key, kind })),
    );
    const amounts = {};
    for (const { key, kind } of measured) amounts[`${key} ${kind}`] = await sliceAmount(servers[key], kind);

    const samples = Object.fromEntries(Object.keys(amounts).map((name) => [name, []]));
    const rotating = Object.keys(servers).filter((key) => key !== 'ceiling');
    for (let round = 0; round < rounds; round++) {
      const shift = round % rotating.length;
      const order = [...rotating.slice(shift), ...rotating.slice(0, shift)];
      for (const kind of ['GET', 'POST']) {
        for (const key of kind === 'GET' ? [...order, 'ceiling'] : order) {
          const name = `${key} ${kind}`;
          samples[name].push(await measure(servers[key], kind, amounts[name]));
        }
      }
    }
    return report({ rounds, servers, amounts, samples, pageSizes });
  } finally {
    for (const server of Object.values(servers).reverse()) await server.stop?.();
    work.cleanup();
  }
}

/**
 * Every server answers the list GET with a success; the sandbox's and both json-servers' pages hold
 * the same 20 loan requests. Resolves with each server's reply size in bytes.
 */
async function checkPages(servers) {
  const pages = {};
  for (const [key, server] of Object.entries(servers)) {
    const response = await fetch(server.GET.url, { headers: server.GET.headers });
    const text = await response.text();
    if (!response.ok) throw new Error(`${key}: the list GET answered ${response.status}: ${text.slice(0, 200)}`);
    const page = JSON.parse(text);
    pages[key] = { size: Buffer.byteLength(text), items: Array.isArray(page) ? page : page.data?.loan_requests };
    if (!Array.isArray(pages[key].items) || pages[key].items.length === 0) {
      throw new Error(`${key}: the list GET's reply holds no loan requests: ${text.slice(0, 200)}`);
    }
  }
  const ids = (key) => pages[key].items.map((item) => item.id).join(',');
  for (const key of ['json-server 100', 'json-server 10,000']) {
    if (ids(key) !== ids('sandbox') || pages[key].items.length !== 20) {
      throw new Error(`the sandbox's and ${key}'s pages differ: ${ids('sandbox')} / ${ids(key)}`);
    }
  }
  return Object.fromEntries(Object.entries(pages).map(([key, page]) => [key, page.size]));
}

function report({ rounds, servers, amounts, samples, pageSizes }) {
  const lines = [
    `  ${rounds} rounds at ${CONNECTIONS} connections, slices of about ${SLICE_SECONDS} s (a number of requests each, from the warm-up); json-server on ${SMALL} and on ${LOANS.toLocaleString('en-GB')} loan requests; Prism and Mockoon mock from the sandbox's /openapi.json`,
    `  a GET's reply: ${Object.entries(pageSizes)
      .map(([key, size]) => `${key} ${count(size)} B`)
      .join(', ')}`,
    '  server and request        req/s   req/CPU-s  of a core   p99   (slice: requests; req/s low–high)',
  ];
  for (const [name, slices] of Object.entries(samples)) {
    const rps = slices.map((s) => s.rps);
    const core = median(slices.map((s) => s.cpu / s.seconds));
    lines.push(
      `  ${name.padEnd(24)} ${count(median(rps)).padStart(6)}  ${count(median(slices.map((s) => s.perCpu))).padStart(9)}  ${core.toFixed(2).padStart(9)}  ${median(
        slices.map((s) => s.p99),
      )
        .toFixed(0)
        .padStart(4)} ms  (${amounts[name]}; ${count(Math.min(...rps))}–${count(Math.max(...rps))})`,
    );
  }
  const peerKeys = Object.keys(PEERS);
  const figures = ['GET', 'POST'].flatMap((kind) => {
    const of = (key, field) => samples[`${key} ${kind}`].map((s) => s[field]);
    const ours = of('sandbox', 'perCpu');
    const ratioTo = (rates) => median(ours.map((value, round) => value / rates[round]));
    const best = ours.map((_, round) => Math.max(...peerKeys.map((key) => of(key, 'perCpu')[round])));
    const bestPeer = peerKeys.reduce((a, b) => (median(of(a, 'perCpu')) >= median(of(b, 'perCpu')) ? a : b));
    const what = kind === 'GET' ? 'GET 20 of 10,000 loan requests' : 'POST a new user';
    lines.push(
      `  ${what}, sandbox per CPU-second / each peer's: ${peerKeys.map((key) => `${ratioTo(of(key, 'perCpu')).toFixed(2)} x ${servers[key].name}`).join(', ')}`,
    );
    const ratio = ratioTo(best);
    const rows = [
      {
        figure: `${what}, ${CONNECTIONS} conn: sandbox / best peer, requests per CPU-second`,
        measured: `${ratio.toFixed(2)} x (${count(median(ours))} vs ${count(median(of(bestPeer, 'perCpu')))}: ${servers[bestPeer].name}; req/s ${count(median(of('sandbox', 'rps')))} vs ${count(median(of(bestPeer, 'rps')))})`,
        goalText: '≥ 1 x',
        holds: ratio >= 1,
      },
    ];
    if (kind === 'GET') {
      const ceiling = of('ceiling', 'perCpu');
      rows.push({
        figure: `  the same page's bytes from memory (same server, hooks and request log) / best peer`,
        measured: `${median(ceiling.map((value, round) => value / best[round])).toFixed(2)} x (${count(median(ceiling))} req/CPU-s, ${count(median(of('ceiling', 'rps')))} req/s)`,
        goalText: '— (reported)',
        holds: null,
      });
    }
    return rows;
  });
  return { lines, figures };
}
