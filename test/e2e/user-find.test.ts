/**
 * `user show ID|EMAIL|REFERENCE`, `user find --phone | --name` and `loan find --reference` (issue
 * 12): client-side over the lists (users through the local index), saying on stderr how many rows were read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbPathFor, SandboxDb } from '../../src/sandbox/db.js';
import { createRepos } from '../../src/sandbox/repos/index.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

const USERS = 130; // three pages of the sandbox's 50
let sandbox: CliSandbox;

beforeAll(async () => {
  sandbox = await cliSandbox();
  const db = SandboxDb.open(dbPathFor(sandbox.dataDir));
  try {
    const repos = createRepos(db);
    const now = new Date().toISOString();
    db.transaction(() => {
      for (let n = 1; n <= USERS; n++) {
        repos.users.create({
          org_id: sandbox.org_id,
          firstname: n === 77 ? 'Ada' : 'Borrower',
          lastname: n === 77 ? 'Obi' : `Number${n}`,
          email: `user-${n}@find.example`,
          phone: n % 50 === 0 ? '+2348099999999' : `+23480${String(10_000_000 + n)}`,
          gender: 'female',
          reference: `USR-${n}`,
          source: 'api',
          now,
        });
      }
    });
  } finally {
    db.close();
  }
});
afterAll(() => sandbox.close());

type User = { id: number; email: string; firstname: string };

describe('loanctl user show', () => {
  it('by id: the user, found by bisecting the pages', async () => {
    const result = await sandbox.run(['user', 'show', '120', '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.json<User>()).toMatchObject({ id: 120, email: 'user-120@find.example' });
  });

  it('by e-mail, any case', async () => {
    const result = await sandbox.run(['user', 'show', 'USER-3@find.example', '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.json<User>().id).toBe(3);
  });

  it('an id nobody has is exit 4', async () => {
    const result = await sandbox.run(['user', 'show', '9999']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/^loanctl: No user 9999 in your organisation\./);
  });

  it('by reference: one loanctl never saw is exit 4 at once, saying what to use instead', async () => {
    const result = await sandbox.run(['user', 'show', 'USR-5', '--debug']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/^loanctl: Reference USR-5 was never seen by loanctl on this profile/m);
    expect(result.stderr).toContain('loanctl user show EMAIL|ID');
    expect(result.stderr).not.toMatch(/^debug: > GET/m); // nothing asked of the server
  });
});

describe('loanctl user find', () => {
  it('--phone in any form finds every user with that number, and says how many were walked', async () => {
    const result = await sandbox.run(['user', 'find', '--phone', '08099999999', '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.json<User[]>().map((user) => user.id)).toEqual([50, 100]);
    // user show by e-mail (above) walked page 1 into the index and stopped at its borrower: the
    // rest of the list is walked now.
    expect(result.stderr).toBe(`Scanned ${USERS - 50} new users (${USERS} in the index); 2 matched.\n`);
  });

  it('--name matches words of the first and last name, any case', async () => {
    const result = await sandbox.run(['user', 'find', '--name', 'obi ADA', '-o', 'ndjson']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id),
    ).toEqual([77]);
  });

  it('--limit prints at most that many matches', async () => {
    const result = await sandbox.run(['user', 'find', '--phone', '+2348099999999', '--limit', '1', '-o', 'json']);
    expect(result.json<User[]>().map((user) => user.id)).toEqual([50]);
    expect(result.stderr).toBe(`Scanned 0 new users (${USERS} in the index); 1 matched.\n`);
  });

  it('needs exactly one of --phone and --name (exit 2)', async () => {
    const result = await sandbox.run(['user', 'find']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^loanctl: Give one of --phone or --name\./);
  });
});

describe('loanctl loan find --reference', () => {
  it('finds the loan request with that reference, newest first, and says how many were scanned', async () => {
    const references: string[] = [];
    for (let n = 0; n < 3; n++) {
      const created = await sandbox.run([
        'loan',
        'create',
        '--user',
        '7',
        '--amount',
        '1000',
        '--purpose',
        `p${n}`,
        '-o',
        'json',
      ]);
      references.push(created.json<{ reference: string }>().reference);
    }
    const result = await sandbox.run(['loan', 'find', '--reference', references[0] as string, '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.json<{ reference: string; purpose: string }>()).toMatchObject({ purpose: 'p0' });
    expect(result.stderr).toBe('Scanned 3 loan requests.\n');
  });

  it('an unknown reference is exit 4', async () => {
    const result = await sandbox.run(['loan', 'find', '--reference', 'LR-NOPE']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/No loan request with reference LR-NOPE/);
  });
});
