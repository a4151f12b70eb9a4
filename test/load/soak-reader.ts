/**
 * The soak's second process (test/load/soak.load.ts): it reads while the clients write and the
 * sandbox is killed and restarted, as an operator's `loan list` / `loan show` would. Run by Node
 * directly (type stripping), so it imports nothing from src/; what an envelope's statuses are comes
 * from the parent (SOAK_STATUSES, from the contract), with the URL, product and key (the key in the
 * environment, not argv, so it stays out of the process list).
 *
 * In a loop until its stdin ends (the parent is done, or gone): the first page of users, the
 * newest loan requests, and for each of the first few of those its progress, bank details,
 * guarantors and employment. Every complete reply is judged: the API's envelope (a JSON object with
 * a known status and a string message) with status success, or not. A refused or dropped
 * connection is the sandbox restarting: counted, and the loop pauses a moment. At the end it prints
 * one JSON line with the counts and the first few offending replies.
 */
import { Agent, request } from 'node:http';

const base = process.env.SOAK_URL ?? '';
const key = process.env.SOAK_KEY ?? '';
const product = process.env.SOAK_PRODUCT ?? '';
const statuses = (process.env.SOAK_STATUSES ?? '').split(',');
/** A bound of its own, should the parent never end stdin. */
const MAX_LIFETIME_MS = 150_000;

const counts = { replies: 0, envelopes: 0, success: 0, down: 0, rounds: 0 };
const nonEnvelope: string[] = [];
const notSuccess: string[] = [];
const agent = new Agent({ keepAlive: true, maxSockets: 2 });
let done = false;

type Got = { http: number; json: unknown } | undefined;

function get(path: string): Promise<Got> {
  return new Promise((resolve) => {
    const req = request(
      `${base}${path}`,
      { agent, timeout: 10_000, headers: { authorization: `Bearer ${key}`, accept: 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', () => resolve(undefined));
        res.on('end', () => {
          if (!res.complete) return resolve(undefined);
          resolve(judge(path, res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(undefined));
    req.end();
  }).then((got) => {
    if (got === undefined) counts.down++;
    return got as Got;
  });
}

function judge(path: string, http: number, text: string): Got {
  counts.replies++;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const envelope = json as { status?: unknown; message?: unknown } | undefined;
  const isEnvelope =
    typeof envelope === 'object' &&
    envelope !== null &&
    !Array.isArray(envelope) &&
    statuses.includes(envelope.status as string) &&
    typeof envelope.message === 'string';
  if (!isEnvelope) {
    if (nonEnvelope.length < 5) nonEnvelope.push(`GET ${path}: HTTP ${http} ${text.slice(0, 200)}`);
    return { http, json: undefined };
  }
  counts.envelopes++;
  if (http === 200 && envelope.status === 'success') counts.success++;
  else if (notSuccess.length < 5) notSuccess.push(`GET ${path}: HTTP ${http} ${text.slice(0, 200)}`);
  return { http, json };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readRound(): Promise<void> {
  const q = `product-id=${product}`;
  const users = await get('/api/v1/user?pages=1');
  const loans = await get(`/api/v1/loan_request?${q}&direction=DESC&limit=5`);
  if (users === undefined || loans === undefined) {
    await pause(100);
    return;
  }
  const data = (loans.json as { data?: { loan_requests?: Array<{ id: number }> } } | undefined)?.data;
  for (const { id } of (data?.loan_requests ?? []).slice(0, 3)) {
    for (const what of ['progress', 'bank_details', 'guarantor', 'employment']) {
      if ((await get(`/api/v1/loan_request/${id}/${what}?${q}`)) === undefined) {
        await pause(100);
        return;
      }
    }
  }
  counts.rounds++;
}

process.stdin.resume();
process.stdin.on('end', () => {
  done = true;
});
const started = Date.now();
while (!done && Date.now() - started < MAX_LIFETIME_MS) await readRound();
agent.destroy();
process.stdout.write(`${JSON.stringify({ ...counts, nonEnvelope, notSuccess })}\n`);
process.exit(0);
