/**
 * A walk of the user list into the local index of borrowers (./borrower-index.ts), shared by every
 * look-up that needs one while it runs. A bulk file's rows look their e-mails up at once: each row
 * rides the walk in progress, told of every page read from the moment it joins, and the walk goes
 * on while a rider still wants a borrower it has not read. So a file walks the list once, as far as
 * its newest borrower, whatever the order of its rows.
 *
 * The pages read are kept as bytes until the walk ends, and the index file is written once then,
 * also when the walk fails: the next walk goes on from the last page read. A look-up that asks
 * what the index knows meanwhile brings the index's text in memory up to the last page read first
 * (`commit`): a borrower already walked past is answered from there, not by walking on to the end
 * of the list for it.
 */
import {
  type IndexPaths,
  type IndexText,
  indexLine,
  lastEntries,
  type WalkMark,
  writeIndex,
} from '../config/user-index.js';
import type { UserListItem } from '../contract/schemas.js';
import { normalisePhone } from '../contract/vocabulary.js';
import type { ApiClient } from '../http/api-client.js';
import type { Wanted } from './borrower-index.js';
import { type PageSeen, userPages } from './pages.js';

/** Pages asked for at once by a walk (the client's connection pool, src/http/client.ts). */
export const WALK_AHEAD = 8;

/** Where a walk of an empty index starts. */
const NO_MARK: WalkMark = { lastPage: 1, lastPageFirstId: 0, lastPageSize: 0 };

/** A look-up on a walk: what it wants, and what the walk showed it. */
export class Rider {
  readonly seen: UserListItem[] = [];
  /** Borrowers the walk added to the index while this rode it. */
  walked = 0;
  readonly done: Promise<void>;
  resolve: () => void = () => {};
  reject: (error: unknown) => void = () => {};

  constructor(
    readonly wanted: Wanted,
    readonly pageSeen: PageSeen,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** Whether it has what it came for (an e-mail's one borrower): the walk need not go on for it. */
  get satisfied(): boolean {
    return this.wanted.email !== undefined && this.seen.length > 0;
  }
}

/** What a walk needs of its index. */
export interface WalkHost {
  api(): ApiClient;
  paths: IndexPaths;
  /** The index's text in memory is now this; `grown`: the text shown before, lines added after it. */
  show(text: IndexText, grown: boolean): void;
  /** The walk takes no more riders (called once, before its riders are told it ended). */
  closed(walk: Walk): void;
}

export class Walk {
  /** It reads the list from page 1 into a new index (no index to go on from, or one not believed). */
  rebuild = false;
  /** Set once the walk takes no more riders: a look-up that comes then waits for the next walk. */
  closing = false;
  /** Settles (never rejects) once the walk is over and its riders told. */
  readonly ended: Promise<void>;
  private readonly riders = new Set<Rider>();
  /** The riders that want an e-mail, by it. */
  private readonly byEmail = new Map<string, Rider[]>();
  private base: IndexText | undefined;
  /** Each page's new lines, as bytes (outside the JavaScript heap; see `run`). */
  private pages: Buffer[] = [];
  /** How many of `pages` are in `text`. */
  private committed = 0;
  /** The base and the pages committed: the index's text in memory. */
  private text: IndexText | undefined;
  private mark: WalkMark | undefined;
  private added = 0;

  /** Walks on from the end of `base` (undefined: from page 1), `first` riding. */
  constructor(
    private readonly host: WalkHost,
    base: IndexText | undefined,
    first: Rider,
  ) {
    this.join(first);
    this.ended = this.run(base).then(
      () => this.end(),
      (error: unknown) => this.fail(error),
    );
  }

  /** `rider` rides from the next page read (the caller checks `closing` first). */
  join(rider: Rider): void {
    this.riders.add(rider);
    const { email } = rider.wanted;
    if (email !== undefined) this.byEmail.set(email, [...(this.byEmail.get(email) ?? []), rider]);
  }

  /** Brings the index's text in memory up to the last page read (the file is written at the end). */
  commit(): void {
    const mark = this.mark ?? this.base?.mark ?? NO_MARK;
    if (this.text && this.committed === this.pages.length && this.text.mark === mark) return;
    const read = Buffer.concat(this.pages.slice(this.committed)).toString('utf8');
    const grown = this.text !== undefined;
    this.committed = this.pages.length;
    this.text = { body: (this.text?.body ?? '') + read, lines: (this.base?.lines ?? 0) + this.added, mark };
    this.host.show(this.text, grown);
  }

  private async run(base: IndexText | undefined): Promise<void> {
    this.rebuild = base === undefined;
    this.base = base;
    this.text = base;
    this.pages = [];
    this.committed = 0;
    this.mark = undefined;
    this.added = 0;
    const fromPage = base?.mark.lastPage ?? 1;
    // Each page's lines are kept as bytes: a million lines held as strings until the end made the
    // walk spend more time collecting garbage than reading pages.
    for await (const { users, page } of userPages(this.host.api(), {}, { prefetch: WALK_AHEAD, firstPage: fromPage })) {
      let added = users;
      if (base && page === fromPage) {
        // Not the page the last walk ended on: the list is not the one walked.
        if (!samePage(users, base)) return this.run(undefined);
        added = users.slice(base.mark.lastPageSize);
      }
      if (added.length > 0) this.pages.push(Buffer.from(pageLines(added, page)));
      this.added += added.length;
      this.mark = { lastPage: page, lastPageFirstId: users[0]?.id ?? 0, lastPageSize: users.length };
      this.tell(added);
      if (this.riders.size === 0) {
        // Every rider has its borrower: the index holds the list up to this page, and the next
        // walk goes on from here.
        this.closing = true;
        break;
      }
    }
    if (base && !this.mark && base.mark.lastPageSize > 0) return this.run(undefined); // its last page is gone
  }

  /**
   * Shows each rider the users a page added; a rider that has its borrower leaves. An e-mail's
   * riders are found by a user's e-mail (a bulk file's rows: as many riders as rows at once).
   */
  private tell(added: UserListItem[]): void {
    const hits = new Map<Rider, number>();
    for (const user of added) {
      if (this.byEmail.size === 0) break;
      const riders = typeof user.email === 'string' ? this.byEmail.get(user.email.toLowerCase()) : undefined;
      if (!riders) continue;
      for (const rider of riders) {
        rider.seen.push(user);
        hits.set(rider, (hits.get(rider) ?? 0) + 1);
      }
    }
    for (const rider of this.riders) {
      let matched = hits.get(rider) ?? 0;
      if (rider.wanted.email === undefined) {
        const found = added.filter(rider.wanted.user);
        rider.seen.push(...found);
        matched = found.length;
      }
      rider.walked += added.length;
      rider.pageSeen(added.length, matched);
      if (rider.satisfied) this.leave(rider);
    }
  }

  private leave(rider: Rider): void {
    this.riders.delete(rider);
    const { email } = rider.wanted;
    if (email !== undefined) {
      const others = (this.byEmail.get(email) ?? []).filter((other) => other !== rider);
      if (others.length > 0) this.byEmail.set(email, others);
      else this.byEmail.delete(email);
    }
    rider.resolve();
  }

  /** The index written (once, unless nothing changed), then the riders told. */
  private end(): void {
    this.save();
    this.host.closed(this);
    for (const rider of this.riders) rider.resolve();
  }

  /**
   * The pages read before the failure written, as at the end (a 5xx after retries, a rate limit,
   * the requests dropped by Ctrl-C: src/bulk/run.ts closes the pool with `abort`), so the next
   * walk goes on from the last of them; then each rider still on it has the error.
   */
  private fail(error: unknown): void {
    if (this.mark)
      this.save(); // else nothing was read: the index stays as it was
    else this.closing = true;
    this.pages = [];
    this.host.closed(this);
    for (const rider of this.riders) rider.reject(error);
  }

  /** Writes the base and the pages read, up to the last page's mark (unless nothing changed). */
  private save(): void {
    this.closing = true;
    const { base } = this;
    const mark = this.mark ?? base?.mark ?? NO_MARK;
    if (!base || this.added > 0 || !sameMark(mark, base.mark)) {
      const parts = base ? [Buffer.from(base.body), ...this.pages] : this.pages;
      this.commit();
      writeIndex(this.host.paths, parts, mark);
    }
    this.pages = [];
  }
}

/**
 * Whether the page read again begins with the users of the index's last lines, ids and e-mails: a
 * snapshot of another sandbox restored may have the same ids and page sizes, not the same e-mails.
 */
function samePage(users: readonly UserListItem[], known: IndexText): boolean {
  const { lastPageSize } = known.mark;
  const entries = lastEntries(known.body, lastPageSize);
  return (
    entries.length === lastPageSize &&
    entries.every((entry, at) => users[at]?.id === entry.id && String(users[at]?.email).toLowerCase() === entry.email)
  );
}

/** The index lines of a page's users. */
function pageLines(users: UserListItem[], page: number): string {
  let lines = '';
  for (const { id, email, phone, firstname, lastname } of users) {
    lines += indexLine(id, page, String(email).toLowerCase(), phoneKey(phone), text(firstname), text(lastname));
  }
  return lines;
}

function sameMark(a: WalkMark, b: WalkMark): boolean {
  return a.lastPage === b.lastPage && a.lastPageFirstId === b.lastPageFirstId && a.lastPageSize === b.lastPageSize;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A phone as the index keeps it: its one normal form when it has one, else as given. */
function phoneKey(phone: unknown): string {
  if (typeof phone !== 'string') return '';
  return normalisePhone(phone) ?? phone;
}
