// The floor of a Node client process, for bench/bulk-share.mjs: what any Node.js program sending
// the share bench's rows reaches on this machine, measured in the same sandbox as loanctl. Called
// as loanctl is (`bare-client.mjs user create --from FILE`, LOANCTL_BASE_URL, LOANCTL_API_KEY), it
// POSTs each line of the file as it is over node:http (a keep-alive agent of 8, as loanctl's
// default --concurrency), parses each reply with JSON.parse and writes one result line a reply:
// no checks of the rows, no journal, no envelope, no redaction, no reordering, Node's defaults.
import { readFileSync } from 'node:fs';
import http from 'node:http';

const CONCURRENCY = 8;
const from = process.argv[process.argv.indexOf('--from') + 1];
const rows = readFileSync(from, 'utf8').split('\n').filter(Boolean);
const url = new URL('/api/v1/user', process.env.LOANCTL_BASE_URL);
const headers = {
  accept: 'application/json',
  authorization: `Bearer ${process.env.LOANCTL_API_KEY}`,
  'content-type': 'application/json',
};
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
let sent = 0;
let done = 0;
await new Promise((resolve, reject) => {
  const sendNext = () => {
    if (sent >= rows.length) return;
    const row = ++sent;
    const request = http.request(url, { method: 'POST', agent, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const reply = JSON.parse(Buffer.concat(chunks).toString());
        const status = response.statusCode === 200 ? 'success' : 'error';
        process.stdout.write(`${JSON.stringify({ row, status, message: reply.message })}\n`);
        if (++done === rows.length) resolve();
        else sendNext();
      });
    });
    request.on('error', reject);
    request.end(rows[row - 1]);
  };
  for (let i = 0; i < CONCURRENCY; i++) sendNext();
});
agent.destroy();
