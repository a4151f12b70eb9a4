/**
 * What the hot read path remembers between requests: the owner of an API key (by its digest), the
 * products of an organisation, and each loan request as its JSON text (exactly what
 * `JSON.stringify(serialize.loanRequest(row))` gives) and each list page as its reply's bytes; and
 * the successful replies of the GETs their handlers mark `cacheable`, by Authorization header and
 * URL, so that the same request again is answered without the key's hash, the schemas and the lookups.
 *
 * Everything is dropped as soon as the database may have changed, checked once per request:
 * `total_changes()` moves with every row this connection writes (a rolled-back write included),
 * and the WAL index header (wal-index.ts: one `pread`, ~1 µs) with every commit of any connection
 * (this one, another `loanctl` process creating a key, the bench seeding rows). Where that header
 * cannot be read safely (not Linux, not WAL), `PRAGMA data_version` (~2–3 µs, a read transaction)
 * tells the commits of other connections instead. So a key created elsewhere works at once, and no
 * reply ever differs from what the database holds; a write only costs the next request its cache.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SandboxDb } from './db.js';
import type { Outcome } from './envelope.js';
import type { KeyOwner, ProductRow } from './repos/index.js';
import { WalIndexWatch } from './wal-index.js';

/** A bound on each map, so that many keys or pages cannot grow the process without limit. */
const MAX_ENTRIES = 20_000;
/** Loan requests kept as text: ~1 KB each, so ~10 MB at most. */
const MAX_LOAN_REQUESTS = 10_000;
/** List replies kept, by bytes: 8 MiB (~400 pages of the default 20, ~80 of 100). */
const MAX_PAGE_BYTES = 8 * 1024 * 1024;

export class ReadCache {
  private readonly sqlite: DatabaseSync;
  private readonly changesStmt: StatementSync;
  /** Commits of any connection: the WAL index header where it can be read, else `PRAGMA data_version`. */
  private readonly walIndex: WalIndexWatch | undefined;
  private readonly dataVersionStmt: StatementSync;
  private changes = -1;
  private dataVersion = -1;
  /** Key digest → its owner, or null for a digest that matches no key. */
  private readonly owners = new Map<string, KeyOwner | null>();
  /** `org:product` → the product, or null when the organisation has no such product. */
  private readonly products = new Map<string, ProductRow | null>();
  /** Loan request id → its JSON text. */
  private readonly loanRequests = new Map<number, string>();
  /** `org:product:direction:cursor:limit` → the list reply. */
  private readonly pages = new Map<string, Outcome>();
  /** `endpoint key, Authorization header, URL` → a cacheable GET's successful reply. */
  private readonly replies = new Map<string, Outcome>();
  private replyBytes = 0;
  private pageBytes = 0;

  /** `walIndex: false` keeps to `PRAGMA data_version` (the tests run both ways). */
  constructor(db: SandboxDb, options: { walIndex?: boolean } = {}) {
    this.sqlite = db.sqlite;
    // Two statements: cheaper than one reading the pragma as a table.
    this.changesStmt = db.sqlite.prepare('SELECT total_changes()');
    this.dataVersionStmt = db.sqlite.prepare('PRAGMA data_version');
    this.changesStmt.setReturnArrays(true);
    this.dataVersionStmt.setReturnArrays(true);
    this.walIndex = options.walIndex === false ? undefined : WalIndexWatch.open(db.sqlite);
  }

  /** How commits of other connections are seen: `wal-index` or `data_version`. */
  get watch(): 'wal-index' | 'data_version' {
    return this.walIndex ? 'wal-index' : 'data_version';
  }

  /**
   * Called at the start of every request: forgets everything if the database changed since. The
   * sandbox never calls it inside a transaction. Were it called there after a write of this
   * connection, what is read next is forgotten at the following call: a rollback would undo the
   * write without moving `total_changes()` again.
   */
  refresh(): void {
    const [changes] = this.changesStmt.get() as unknown as [number];
    // Read on every call, never short-circuited: the watch remembers what it saw.
    const committed = this.walIndex ? this.walIndex.moved() : this.dataVersionMoved();
    if (changes === this.changes && !committed) return;
    this.changes = this.sqlite.isTransaction ? -1 : changes;
    this.owners.clear();
    this.products.clear();
    this.loanRequests.clear();
    this.pages.clear();
    this.replies.clear();
    this.pageBytes = 0;
    this.replyBytes = 0;
  }

  private dataVersionMoved(): boolean {
    const [dataVersion] = this.dataVersionStmt.get() as unknown as [number];
    if (dataVersion === this.dataVersion) return false;
    this.dataVersion = dataVersion;
    return true;
  }

  keyOwner(digest: string, load: (digest: string) => KeyOwner | undefined): KeyOwner | undefined {
    let owner = this.owners.get(digest);
    if (owner === undefined) {
      owner = load(digest) ?? null;
      remember(this.owners, digest, owner);
    }
    return owner ?? undefined;
  }

  product(orgId: number, id: number, load: (orgId: number, id: number) => ProductRow | undefined) {
    const key = `${orgId}:${id}`;
    let product = this.products.get(key);
    if (product === undefined) {
      product = load(orgId, id) ?? null;
      remember(this.products, key, product);
    }
    return product ?? undefined;
  }

  loanRequestJson(id: number): string | undefined {
    return this.loanRequests.get(id);
  }

  rememberLoanRequestJson(id: number, json: string): void {
    if (this.loanRequests.size >= MAX_LOAN_REQUESTS) this.loanRequests.clear();
    this.loanRequests.set(id, json);
  }

  page(key: string): Outcome | undefined {
    return this.pages.get(key);
  }

  rememberPage(key: string, outcome: Outcome): void {
    const bytes = outcome.body?.length ?? 0;
    if (this.pageBytes + bytes > MAX_PAGE_BYTES || this.pages.size >= MAX_ENTRIES) {
      this.pages.clear();
      this.pageBytes = 0;
    }
    this.pages.set(key, outcome);
    this.pageBytes += bytes;
  }

  reply(key: string): Outcome | undefined {
    return this.replies.get(key);
  }

  /** Only a success already as bytes (a list page: the same object as in `pages`, so shared). */
  rememberReply(key: string, outcome: Outcome): void {
    if (!outcome.body || outcome.http !== undefined || outcome.status !== 'success') return;
    const bytes = outcome.body.length;
    if (this.replyBytes + bytes > MAX_PAGE_BYTES || this.replies.size >= MAX_ENTRIES) {
      this.replies.clear();
      this.replyBytes = 0;
    }
    this.replies.set(key, outcome);
    this.replyBytes += bytes;
  }
}

function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  if (map.size >= MAX_ENTRIES) map.clear();
  map.set(key, value);
}
