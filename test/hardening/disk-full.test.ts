/**
 * A sandbox process whose disk fills up (a file size limit, `ulimit -f`, which node meets as
 * EFBIG and SQLite as a failed write): each refused write is answered with an envelope that says
 * the disk is full (507), not a bare 500; stderr says so in a few lines naming the data dir, not
 * one a request; what was acknowledged before stays readable. Loopback only, bounded loop.
 */
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir } from '../helpers/sandbox.js';
import { assertBuilt, BIN, isolatedEnv, type SandboxLine } from '../helpers/sandbox-process.js';

let dataDir: string;
let child: ReturnType<typeof execa>;
let line: SandboxLine;

beforeAll(async () => {
  assertBuilt();
  dataDir = tempDir();
  // 1 MiB a file: the start fits, a few dozen borrowers later the write-ahead log does not.
  child = execa(
    'bash',
    [
      '-c',
      'ulimit -f 1024; exec "$0" "$@"',
      process.execPath,
      BIN,
      'sandbox',
      'start',
      '--json',
      '--port',
      '0',
      '--data-dir',
      dataDir,
    ],
    { env: isolatedEnv(), extendEnv: false, stdin: 'ignore', reject: false, buffer: { stdout: false } },
  );
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve);
    void child.then((result) => reject(new Error(`sandbox start ended: ${result.exitCode} ${result.stderr}`)));
  });
  line = JSON.parse(first) as SandboxLine;
});
afterAll(async () => {
  child?.kill('SIGTERM');
  await child;
  rmSync(dataDir, { recursive: true, force: true });
});

it('answers each refused write with a disk-full envelope, and says so on stderr in a few lines', async () => {
  const headers = { authorization: `Bearer ${line.api_key}`, 'content-type': 'application/json' };
  const replies: Array<{ http: number; status: string; message: string }> = [];
  for (let i = 0; i < 300; i++) {
    const reply = await fetch(`${line.url}/api/v1/user`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        firstname: `Ada ${'x'.repeat(2000)}`,
        lastname: 'Obi',
        email: `ada${i}@example.com`,
        password: 'pw',
        phone: '+2348012345678',
        gender: 'female',
      }),
    });
    replies.push({ http: reply.status, ...((await reply.json()) as { status: string; message: string }) });
  }
  const saved = replies.filter((reply) => reply.status === 'success').length;
  const refused = replies.filter((reply) => reply.status !== 'success');
  expect(saved).toBeGreaterThan(0);
  expect(refused.length).toBeGreaterThan(100);
  for (const reply of refused) {
    expect(reply.http).toBe(507);
    expect(reply.message).toMatch(/^The sandbox's disk is full: nothing of this request was saved/);
  }

  // Reads still work, and every acknowledged write is there.
  const list = await fetch(`${line.url}/api/v1/user?product-id=${line.product_id}&limit=100`, { headers });
  expect(((await list.json()) as { data: unknown[] }).data).toHaveLength(Math.min(saved, 100));

  child.kill('SIGTERM');
  const stderr = String((await child).stderr);
  const told = stderr.split('\n').filter((text) => text.startsWith('sandbox:'));
  expect(told.length, stderr).toBeGreaterThan(0);
  expect(told.length, stderr).toBeLessThanOrEqual(4);
  expect(told[0]).toContain(
    `the disk is full (or a file size limit was reached) where the sandbox keeps its data, ${dataDir}`,
  );
  expect(stderr).not.toContain('unexpected error');
});
