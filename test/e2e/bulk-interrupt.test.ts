/**
 * Ctrl-C during a bulk run: no more rows are read, the requests still out are dropped and each
 * reports that it may or may not have been applied, the summary is printed, and the exit is 130,
 * at once (the server here never answers, so nothing but the interrupt can end the run).
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { assertBuilt, BIN } from '../helpers/cli.js';

const requests: string[] = [];
let server: Server | undefined;
afterAll(() => {
  server?.closeAllConnections();
  server?.close();
});

it('Ctrl-C stops a bulk run at once: in-flight rows say "may or may not", the rest are not sent, exit 130', async () => {
  assertBuilt();
  server = createServer((request) => requests.push(`${request.method} ${request.url}`));
  await new Promise<void>((listening) => server?.listen(0, '127.0.0.1', listening));
  const port = (server.address() as { port: number }).port;
  const file = join(tmpdir(), 'users.ndjson');
  const row = (n: number) =>
    JSON.stringify({
      firstname: 'A',
      lastname: 'B',
      email: `u${n}@example.com`,
      password: 'pw',
      phone: '08012345678',
      gender: 'f',
    });
  writeFileSync(file, `${[1, 2, 3, 4, 5, 6].map(row).join('\n')}\n`);

  const child = execa(
    process.execPath,
    [BIN, 'user', 'create', '--from', file, '--concurrency', '2', '--timeout', '60'],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: tmpdir(),
        LOANCTL_CONFIG_DIR: join(tmpdir(), 'bulk-interrupt-config'),
        LOANCTL_BASE_URL: `http://127.0.0.1:${port}`,
        LOANCTL_API_KEY: 'sk_test_interrupt',
      },
      extendEnv: false,
      reject: false,
    },
  );
  for (let waited = 0; requests.length < 2; waited += 20) {
    if (waited > 15_000) throw new Error(`the bulk run sent ${requests.length} requests in 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill('SIGINT');
  const result = await child;

  expect(result.exitCode).toBe(130);
  const lines = result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(lines.map((line) => [line.row, line.status])).toEqual([
    [1, 'error'],
    [2, 'error'],
  ]);
  for (const line of lines) expect(line.message).toMatch(/may or may not have been created/);
  expect(result.stderr).toContain('2 rows: 0 created, 0 existed, 2 failed');
  expect(result.stderr).toMatch(
    /^loanctl: Stopped after 2 rows: Cancelled \(Ctrl-C\)\. .*Running the file again is safe\.$/m,
  );
  expect(requests).toEqual(['POST /api/v1/user', 'POST /api/v1/user']);
});
