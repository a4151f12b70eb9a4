/**
 * `sandbox seed FILE` is bounded: a FIFO, a device or a directory is
 * refused at once, a file over the size limit, nested past the depth limit or with too many
 * steps is refused before it is parsed whole, and a step's `at` that would leave the clock's
 * range is refused before the first step is sent. Each: exit 2, one line, nothing seeded, and
 * quickly (the attack's /dev/zero grew to 3.4 GB in 60 s; a 50 MB scalar took 43 s).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dbPathFor } from '../../src/sandbox/db.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/sandbox.js';

let dataDir: string;

beforeEach(() => {
  dataDir = tempDir();
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const MiB = 1024 * 1024;
const ONE_USER = `  - name: borrower
    op: createUser
    body: { firstname: Ada, lastname: Obi, email: "ada@example.com", password: pw-123456, phone: "+2348012345678", gender: female }
`;

function users(): number {
  if (!existsSync(dbPathFor(dataDir))) return 0;
  const db = new DatabaseSync(dbPathFor(dataDir), { readOnly: true });
  const { count } = db.prepare('SELECT count(*) AS count FROM users').get() as { count: number };
  db.close();
  return count;
}

/** Seeds `file`; expects a refusal in one line matching `why`, and nothing seeded. */
async function refused(file: string, why: RegExp): Promise<void> {
  const started = Date.now();
  const result = await runCli(['sandbox', 'seed', file, '--data-dir', dataDir]);
  expect(result.exitCode, result.stderr).toBe(2);
  expect(result.stderr).toMatch(why);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(users()).toBe(0);
  // Generous for a loaded machine; before the limits these took minutes or never ended.
  expect(Date.now() - started).toBeLessThan(15_000);
}

function write(name: string, text: string): string {
  const file = join(dataDir, name);
  writeFileSync(file, text);
  return file;
}

describe('what is not a regular file is refused at once', () => {
  it('/dev/zero', async () => {
    await refused('/dev/zero', /\/dev\/zero is not a regular file/);
  }, 30_000);

  it('a FIFO nobody writes to', async () => {
    const fifo = join(dataDir, 'seed.yaml');
    execFileSync('mkfifo', [fifo]);
    await refused(fifo, /seed\.yaml is not a regular file/);
  }, 30_000);

  it('a directory', async () => {
    await refused(dataDir, /is not a regular file/);
  });
});

describe('size, depth and count', () => {
  it('a file over 1 MiB, even when the excess is a comment', async () => {
    await refused(write('big.yaml', `steps:\n${ONE_USER}# ${'x'.repeat(MiB)}\n`), /larger than 1 MiB/);
  });

  it('a 50 MB scalar', async () => {
    await refused(
      write('scalar.json', `{"steps":[{"name":"a","op":"createUser","body":"${'a'.repeat(50 * MiB)}"}]}`),
      /larger than 1 MiB/,
    );
  }, 30_000);

  it('YAML brackets nested half a million deep, within the size', async () => {
    const deep = 500_000;
    await refused(
      write('deep.yaml', `steps: ${'['.repeat(deep)}${']'.repeat(deep)}\n`),
      /nests values more than 32 deep/,
    );
  }, 30_000);

  it('JSON nested 100 deep in a body', async () => {
    const body = `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`;
    await refused(
      write('deep.json', `{"steps":[{"name":"a","op":"createUser","body":${body}}]}`),
      /nests values more than 32 deep/,
    );
  });

  it('YAML block mappings nested 40 deep', async () => {
    const lines = Array.from({ length: 40 }, (_, level) => `${'  '.repeat(level + 3)}k${level}:`).join('\n');
    await refused(
      write('block.yaml', `steps:\n  - name: a\n    op: createUser\n    body:\n${lines} 1\n`),
      /nests values more than 32 deep/,
    );
  });

  it('aliases that expand exponentially ("billion laughs")', async () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level);
      levels.push(
        `${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(10).fill(`*${previous}`).join(',')}]`,
      );
    }
    await refused(write('laughs.yaml', `${levels.join('\n')}\nsteps: *i\n`), /not valid YAML/);
  }, 30_000);

  it('more than 1,000 steps', async () => {
    const steps = Array.from({ length: 1_001 }, (_, index) => ONE_USER.replace('borrower', `b${index}`)).join('');
    await refused(write('steps.yaml', `steps:\n${steps}`), /steps: a seed file has at most 1000 steps/);
  });

  it('a step whose `at` would take the clock out of range', async () => {
    const at = `${ONE_USER}    at: -999999d\n`;
    await refused(
      write('at.yaml', `steps:\n${ONE_USER.replace('borrower', 'first')}${at}`),
      /Step "borrower": its `at`.*1970-01-01T00:00:00Z to 2999-12-31T23:59:59Z/,
    );
  });
});

it('a file inside every limit is seeded', async () => {
  const result = await runCli(['sandbox', 'seed', write('ok.yaml', `steps:\n${ONE_USER}`), '--data-dir', dataDir]);
  expect(result.exitCode, result.stderr).toBe(0);
  expect(users()).toBe(1);
});
