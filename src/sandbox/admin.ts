/**
 * Administration of a sandbox's data: organisations with their API keys, products, and the demo
 * organisation that `sandbox start` creates on an empty data dir. Each function takes either a data
 * dir (it opens the database, does its work in one transaction, and closes it) or an open SandboxDb.
 * They work while a server serves the same data dir: SQLite's WAL lets them write beside it, and
 * the server looks keys up per request, so a new key is honoured at once.
 */
import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MakeDirError, makeDir } from '../make-dir.js';
import { readClock } from './control/clock.js';
import { dbPathFor, SandboxDb } from './db.js';
import { createRepos, type Repos } from './repos/index.js';
import { hashApiKey, newApiKey } from './secrets.js';

export interface CreatedOrganisation {
  org_id: number;
  api_key: string;
}

export interface CreatedProduct {
  product_id: number;
  slug: string;
}

export interface DemoCredentials {
  org_id: number;
  api_key: string;
  product_id: number;
}

/** A data dir, or an open database. */
export type SandboxTarget = string | SandboxDb;

export interface AdminOptions {
  /** Default: the data dir's own clock (control/clock.ts), as the server's timestamps. */
  now?: () => Date;
}

/** Thrown for admin input that cannot be used (the CLI turns it into a usage error). */
export class SandboxAdminError extends Error {
  override name = 'SandboxAdminError';
}

export const DEMO_ORGANISATION_NAME = 'Demo Lender';
export const DEMO_PRODUCT_NAME = 'Working Capital Loan';
/** The file, inside the data dir, that keeps the demo organisation's credentials (mode 0600). */
export const DEMO_CREDENTIALS_FILE = 'demo-credentials.json';

function withDb<T>(target: SandboxTarget, work: (repos: Repos, db: SandboxDb) => T): T {
  if (typeof target !== 'string') return target.transaction(() => work(createRepos(target), target));
  try {
    makeDir(target, 0o700);
  } catch (error) {
    if (error instanceof MakeDirError) throw new SandboxAdminError(`cannot use the data dir: ${error.message}`);
    throw error;
  }
  const db = SandboxDb.open(dbPathFor(target));
  try {
    return db.transaction(() => work(createRepos(db), db));
  } finally {
    db.close();
  }
}

function cleanName(name: string, what: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new SandboxAdminError(`the ${what} name must not be empty`);
  if (trimmed.length > 200) throw new SandboxAdminError(`the ${what} name must be at most 200 characters`);
  return trimmed;
}

function stampOf(db: SandboxDb, options: AdminOptions): string {
  return (options.now?.() ?? readClock(db).now).toISOString();
}

/** `Working Capital Loan` → `working-capital-loan`. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? 'product' : slug;
}

/** A new organisation with a new API key. The key is returned once; only its SHA-256 digest is kept. */
export function createOrganisation(
  target: SandboxTarget,
  name: string,
  options: AdminOptions = {},
): CreatedOrganisation {
  const orgName = cleanName(name, 'organisation');
  return withDb(target, (repos, db) => {
    const stamp = stampOf(db, options);
    const orgId = repos.organisations.create(orgName, stamp);
    const apiKey = newApiKey();
    repos.organisations.addKey(orgId, hashApiKey(apiKey), stamp);
    return { org_id: orgId, api_key: apiKey };
  });
}

/** A new product of the organisation; its slug is made from the name, unique within the organisation. */
export function createProduct(
  target: SandboxTarget,
  orgId: number,
  name: string,
  options: AdminOptions = {},
): CreatedProduct {
  const productName = cleanName(name, 'product');
  return withDb(target, (repos, db) => {
    const stamp = stampOf(db, options);
    if (!repos.organisations.find(orgId)) throw new SandboxAdminError(`there is no organisation with id ${orgId}`);
    const base = slugify(productName);
    let slug = base;
    for (let n = 2; repos.products.slugTaken(orgId, slug); n++) slug = `${base}-${n}`;
    return { product_id: repos.products.create(orgId, productName, slug, stamp), slug };
  });
}

/** True when the credentials still open the sandbox: the key is known, and the product is the org's. */
function stillValid(repos: Repos, demo: DemoCredentials): boolean {
  const owner = repos.organisations.keyOwner(hashApiKey(demo.api_key));
  return owner?.org_id === demo.org_id && repos.products.findForOrg(demo.org_id, demo.product_id) !== undefined;
}

/** The demo organisation's credentials as `sandbox start` kept them, if the file is there and whole. */
export function readDemoCredentials(dataDir: string): DemoCredentials | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(dataDir, DEMO_CREDENTIALS_FILE), 'utf8')) as Partial<DemoCredentials>;
    if (
      Number.isSafeInteger(parsed.org_id) &&
      typeof parsed.api_key === 'string' &&
      Number.isSafeInteger(parsed.product_id)
    ) {
      return parsed as DemoCredentials;
    }
  } catch {
    // Missing or unreadable: a new demo organisation is made.
  }
  return undefined;
}

function writeDemoCredentials(dataDir: string, demo: DemoCredentials): void {
  const file = join(dataDir, DEMO_CREDENTIALS_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

/**
 * The demo organisation's credentials, kept in `demo-credentials.json` (0600) in the data dir so
 * that a restarted sandbox prints the same key (keys are stored hashed and cannot be shown again).
 * When that file is missing or its key no longer opens the database, a new demo organisation with
 * one product is made and the file (re)written.
 */
export function ensureDemo(dataDir: string, options: AdminOptions = {}): DemoCredentials & { created: boolean } {
  makeDir(dataDir, 0o700);
  const db = SandboxDb.open(dbPathFor(dataDir));
  try {
    const existing = readDemoCredentials(dataDir);
    if (existing && stillValid(createRepos(db), existing)) return { ...existing, created: false };
    const demo = db.transaction(() => {
      const org = createOrganisation(db, DEMO_ORGANISATION_NAME, options);
      const product = createProduct(db, org.org_id, DEMO_PRODUCT_NAME, options);
      return { org_id: org.org_id, api_key: org.api_key, product_id: product.product_id };
    });
    writeDemoCredentials(dataDir, demo);
    return { ...demo, created: true };
  } finally {
    db.close();
  }
}
