/**
 * Rows written straight into a sandbox's database, many at once: the walk-memory test, the look-up
 * tests and the bench's sandbox (bench/sandbox-server.ts) need more rows than the API makes quickly.
 */
import { ensureDemo } from '../../src/sandbox/admin.js';
import { dbPathFor, SandboxDb } from '../../src/sandbox/db.js';
import { createRepos } from '../../src/sandbox/repos/index.js';
import { newReference } from '../../src/sandbox/secrets.js';

/** One borrower (`email`) and `count` loan requests of the demo product, in one transaction. */
export function seedLoanRequests(dataDir: string, count: number, email: string): void {
  const demo = ensureDemo(dataDir);
  const db = SandboxDb.open(dbPathFor(dataDir));
  try {
    const repos = createRepos(db);
    const now = new Date().toISOString();
    db.transaction(() => {
      const userId = repos.users.create({
        org_id: demo.org_id,
        firstname: 'Seed',
        lastname: 'Borrower',
        email,
        phone: '+2348012345678',
        gender: 'female',
        reference: newReference('user'),
        source: 'api',
        now,
      });
      if (userId === undefined) throw new Error(`the seed borrower ${email} exists`);
      for (let i = 0; i < count; i++) {
        repos.loanRequests.create({
          org_id: demo.org_id,
          user_id: userId,
          product_id: demo.product_id,
          reference: newReference('loanRequest'),
          amount: 50_000 + (i % 1000),
          purpose: `Seeded loan request ${i + 1}`,
          now,
        });
      }
    });
  } finally {
    db.close();
  }
}

const DAY_MS = 86_400_000;

/**
 * Borrowers `from` … `from + count - 1` of the organisation `orgId` (`borrower-N@DOMAIN`, reference
 * `USR-N`), created `daysAgo` days before now, in one transaction.
 */
export function seedBorrowers(
  sandbox: { dataDir: string; org_id: number },
  from: number,
  count: number,
  { daysAgo = 0, domain = 'find.example' } = {},
): void {
  const db = SandboxDb.open(dbPathFor(sandbox.dataDir));
  try {
    const repos = createRepos(db);
    const now = new Date(Date.now() - daysAgo * DAY_MS).toISOString();
    db.transaction(() => {
      for (let i = from; i < from + count; i++) {
        repos.users.create({
          org_id: sandbox.org_id,
          firstname: 'Borrower',
          lastname: `Number ${i}`,
          email: `borrower-${i}@${domain}`,
          phone: '+2348012345678',
          gender: 'female',
          reference: `USR-${i}`,
          source: 'api',
          now,
        });
      }
    });
  } finally {
    db.close();
  }
}
