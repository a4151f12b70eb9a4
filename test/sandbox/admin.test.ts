import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createOrganisation,
  createProduct,
  DEMO_CREDENTIALS_FILE,
  ensureDemo,
  SandboxAdminError,
  slugify,
} from '../../src/sandbox/admin.js';
import { dbPathFor, SandboxDb } from '../../src/sandbox/db.js';
import { MIGRATIONS } from '../../src/sandbox/repos/migrations.js';
import { hashApiKey } from '../../src/sandbox/secrets.js';
import { snapshot, tempDir } from '../helpers/sandbox.js';

const dirs: string[] = [];
function dir(): string {
  const made = tempDir();
  dirs.push(made);
  return made;
}
afterEach(() => {
  for (const made of dirs.splice(0)) rmSync(made, { recursive: true, force: true });
});

describe('createOrganisation', () => {
  it('makes an organisation and a random high-entropy key, stored only as its SHA-256 digest', () => {
    const dataDir = dir();
    const a = createOrganisation(dataDir, 'Acme Lending');
    const b = createOrganisation(dataDir, 'Bravo Credit');
    expect(a).toEqual({ org_id: 1, api_key: expect.stringMatching(/^sk_sandbox_[0-9A-Za-z]{32}$/) });
    expect(b.org_id).toBe(2);
    expect(b.api_key).not.toBe(a.api_key);
    const rows = snapshot(dbPathFor(dataDir));
    expect(JSON.stringify(rows)).not.toContain(a.api_key);
    expect(rows.api_keys).toEqual([
      expect.objectContaining({ org_id: 1, key_hash: hashApiKey(a.api_key) }),
      expect.objectContaining({ org_id: 2, key_hash: hashApiKey(b.api_key) }),
    ]);
    expect(rows.organisations).toEqual([
      expect.objectContaining({ id: 1, name: 'Acme Lending' }),
      expect.objectContaining({ id: 2, name: 'Bravo Credit' }),
    ]);
  });

  it('refuses an empty name', () => {
    expect(() => createOrganisation(dir(), '   ')).toThrow(SandboxAdminError);
  });

  it('works on an open database too', () => {
    const db = SandboxDb.open(dbPathFor(dir()));
    try {
      expect(createOrganisation(db, 'Open').org_id).toBe(1);
    } finally {
      db.close();
    }
  });
});

describe('createProduct', () => {
  it('makes a slug from the name, unique within the organisation', () => {
    const dataDir = dir();
    const org = createOrganisation(dataDir, 'Acme');
    const other = createOrganisation(dataDir, 'Other');
    expect(createProduct(dataDir, org.org_id, 'Working Capital')).toEqual({ product_id: 1, slug: 'working-capital' });
    expect(createProduct(dataDir, org.org_id, 'working  capital!')).toEqual({
      product_id: 2,
      slug: 'working-capital-2',
    });
    expect(createProduct(dataDir, other.org_id, 'Working Capital')).toEqual({ product_id: 3, slug: 'working-capital' });
  });

  it('refuses an organisation that does not exist, or an empty name', () => {
    const dataDir = dir();
    expect(() => createProduct(dataDir, 7, 'Loan')).toThrow(/no organisation with id 7/);
    const org = createOrganisation(dataDir, 'Acme');
    expect(() => createProduct(dataDir, org.org_id, '')).toThrow(SandboxAdminError);
  });

  it('slugifies accents, symbols and emptiness', () => {
    expect(slugify('Crédit Agricole — Ñ 2')).toBe('credit-agricole-n-2');
    expect(slugify('!!!')).toBe('product');
  });
});

describe('ensureDemo', () => {
  it('creates a demo organisation and product once, kept in a 0600 file; later calls return the same', () => {
    const dataDir = dir();
    const first = ensureDemo(dataDir);
    expect(first).toEqual({ org_id: 1, api_key: expect.stringMatching(/^sk_sandbox_/), product_id: 1, created: true });
    const file = join(dataDir, DEMO_CREDENTIALS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ org_id: 1, api_key: first.api_key, product_id: 1 });
    const again = ensureDemo(dataDir);
    expect(again).toEqual({ ...first, created: false });
    expect(snapshot(dbPathFor(dataDir)).organisations).toHaveLength(1);
    expect(statSync(dbPathFor(dataDir)).mode & 0o777).toBe(0o600);
  });

  it('makes a new demo organisation when the file is missing or its key no longer opens the database', () => {
    const dataDir = dir();
    createOrganisation(dataDir, 'Made first by org create');
    const demo = ensureDemo(dataDir);
    expect(demo).toMatchObject({ org_id: 2, created: true });
    writeFileSync(join(dataDir, DEMO_CREDENTIALS_FILE), JSON.stringify({ ...demo, api_key: 'sk_sandbox_forged' }));
    expect(ensureDemo(dataDir)).toMatchObject({ org_id: 3, created: true });
  });
});

describe('migrations', () => {
  it('records the schema version and refuses a database from a newer loanctl', () => {
    const path = dbPathFor(dir());
    const db = SandboxDb.open(path);
    expect(db.version()).toBe(MIGRATIONS.length);
    db.close();
    const raw = new DatabaseSync(path);
    raw.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    expect(() => SandboxDb.open(path)).toThrow(/newer than this loanctl knows/);
  });

  it('uses WAL, foreign keys and a busy timeout', () => {
    const db = SandboxDb.open(dbPathFor(dir()));
    try {
      expect(db.sqlite.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      expect(db.sqlite.prepare('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 });
      expect(db.sqlite.prepare('PRAGMA busy_timeout').get()).toEqual({ timeout: 5000 });
    } finally {
      db.close();
    }
  });

  it('rolls a failed transaction back', () => {
    const dataDir = dir();
    const db = SandboxDb.open(dbPathFor(dataDir));
    try {
      expect(() =>
        db.transaction(() => {
          createOrganisation(db, 'Doomed');
          throw new Error('boom');
        }),
      ).toThrow('boom');
      expect(db.sqlite.isTransaction).toBe(false);
    } finally {
      db.close();
    }
    expect(snapshot(dbPathFor(dataDir)).organisations).toEqual([]);
  });
});
