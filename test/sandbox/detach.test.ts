/**
 * `sandbox start --detach`, `status` and `stop` with the real bin: a background process is the
 * point. The key stays off the server's command line; a second start is refused; stop lets a
 * request in flight finish and keeps what it acknowledged; a stale run file is ignored.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/sandbox.js';
import { assertBuilt, isolatedEnv, loanctl } from '../helpers/sandbox-process.js';

interface Detached {
  url: string;
  api_key: string;
  product_id: number;
  pid: number;
  log_file: string;
}

const started: Array<{ dataDir: string; env: Record<string, string> }> = [];
beforeAll(assertBuilt);
afterEach(async () => {
  for (const { dataDir, env } of started.splice(0)) {
    await loanctl(['sandbox', 'stop', '--data-dir', dataDir], env);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

async function startDetached() {
  const dataDir = tempDir();
  const env = isolatedEnv();
  started.push({ dataDir, env });
  const result = await loanctl(
    ['sandbox', 'start', '--detach', '--json', '--port', '0', '--no-profile', '--data-dir', dataDir],
    env,
  );
  expect(result.exitCode, String(result.stderr)).toBe(0);
  return { dataDir, env, line: JSON.parse(String(result.stdout)) as Detached };
}

/** Waits (polling, no time bound asserted) until `check` holds. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await sleep(25);
}

describe('sandbox start --detach', () => {
  it('prints through -o and --fields, --no-profile and csv together too', async () => {
    const dataDir = tempDir();
    const env = isolatedEnv();
    started.push({ dataDir, env });
    const args = ['sandbox', 'start', '--detach', '--port', '0', '--no-profile', '--data-dir', dataDir];
    const result = await loanctl([...args, '-o', 'csv', '--fields', 'url,pid'], env);
    expect(result.exitCode, String(result.stderr)).toBe(0);
    expect(String(result.stdout)).toMatch(/^url,pid\nhttp:\/\/127\.0\.0\.1:\d+,\d+$/);
  });

  it('returns once serving, keeps the key off the server process argv, and refuses a second start', async () => {
    const { dataDir, env, line } = await startDetached();
    expect(line.api_key).toMatch(/^sk_sandbox_/);
    const health = await fetch(`${line.url}/api/v1/user`, { headers: { authorization: `Bearer ${line.api_key}` } });
    expect(health.status).toBe(200);

    const argv = readFileSync(`/proc/${line.pid}/cmdline`, 'utf8');
    expect(argv).toContain('sandbox');
    expect(argv).not.toContain(line.api_key);
    expect(readFileSync(line.log_file, 'utf8')).not.toContain(line.api_key);

    const second = await loanctl(['sandbox', 'start', '--port', '0', '--no-profile', '--data-dir', dataDir], env);
    expect(second.exitCode).toBe(2);
    expect(String(second.stderr)).toContain(`already running on this data dir on ${line.url}, pid ${line.pid}`);

    const status = await loanctl(['sandbox', 'status', '--json', '--data-dir', dataDir], env);
    expect(status.exitCode).toBe(0);
    expect(JSON.parse(String(status.stdout))).toMatchObject({ running: true, url: line.url, pid: line.pid });
  });

  it('stop lets a request in flight finish, keeps what it acknowledged, and waits for the exit', async () => {
    const { dataDir, env, line } = await startDetached();
    const body = JSON.stringify({
      firstname: 'Ada',
      lastname: 'Inflight',
      email: 'inflight@example.com',
      password: 'correct horse battery staple',
      phone: '+2348012345678',
      gender: 'female',
    });
    const url = new URL(`${line.url}/api/v1/user`);
    const reply = new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            authorization: `Bearer ${line.api_key}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 20));
      // The rest once the server has begun to stop: the request is in flight across the SIGTERM.
      void until(() => readFileSync(line.log_file, 'utf8').includes('Stopping the sandbox')).then(() =>
        req.end(body.slice(20)),
      );
    });
    const stop = loanctl(['sandbox', 'stop', '--data-dir', dataDir], env);

    expect(JSON.parse(await reply).status).toBe('success');
    expect((await stop).exitCode).toBe(0);
    expect(existsSync(`/proc/${line.pid}`)).toBe(false);
    const db = new DatabaseSync(join(dataDir, 'sandbox.db'), { readOnly: true });
    expect(db.prepare("SELECT count(*) AS n FROM users WHERE email = 'inflight@example.com'").get()).toEqual({ n: 1 });
    db.close();

    const status = await loanctl(['sandbox', 'status', '--data-dir', dataDir], env);
    expect(status.exitCode).toBe(4);
    expect(String(status.stderr)).toContain('No sandbox is running');
  });

  it('treats a run file whose process is gone as stale', async () => {
    const dataDir = tempDir();
    const env = isolatedEnv();
    const gone = execa(process.execPath, ['-e', ''], { reject: false });
    await gone;
    writeFileSync(join(dataDir, 'sandbox.run.json'), JSON.stringify({ pid: gone.pid, url: 'http://127.0.0.1:1' }));
    const status = await loanctl(['sandbox', 'status', '--data-dir', dataDir], env);
    expect(status.exitCode).toBe(4);
    expect(existsSync(join(dataDir, 'sandbox.run.json'))).toBe(false);
    started.push({ dataDir, env });
    writeFileSync(join(dataDir, 'sandbox.run.json'), JSON.stringify({ pid: gone.pid, url: 'http://127.0.0.1:1' }));
    const start = await loanctl(
      ['sandbox', 'start', '--detach', '--json', '--port', '0', '--no-profile', '--data-dir', dataDir],
      env,
    );
    expect(start.exitCode, String(start.stderr)).toBe(0);
  });
});
