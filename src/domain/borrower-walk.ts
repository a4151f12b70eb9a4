/**
 * A walk of the user list into the local index of borrowers (./borrower-index.ts), shared by every
 * look-up that needs one while it runs. A bulk file's rows look their e-mails up at once: each row
 * rides the walk in progress, told of every page read from the moment it joins, and the walk goes
 * on while a rider still wants a borrower it has not read. So a file walks the list once, as far as
 * its newest borrower, whatever the order of its rows.
 *
 * The pages read are kept as bytes until the walk ends, and the index file is written once then,
 * also when the walk fails: the next walk goes on from the last page read. A look-up by e-mail
 * meanwhile is answered from the pages read too (`emailLines`): a borrower already walked past is
 * not a walk on to the end of the list. Those pages are made text for it once each, in a table of
 * their own (./email-lines.ts), not joined to the index's text: that would copy the whole text each
 * time a row asks after the walk has read more (a bulk file's rows ask all along the walk).
 */
import {
  emailKey,
  type IndexPaths,
  type IndexText,
  indexLine,
  lastEntries,
  type WalkMark,
  writeIndex,
} from '../config/user-index.js';
import type { UserListItem } from '../contract/schemas.js';
import { phoneKey } from '../contract/vocabulary.js';
import type { ApiClient } from '../http/api-client.js';
import type { Wanted } from './borrower-index.js';
import { EmailLines } from './email-lines.js';
import { type PageSeen, userPages } from './pages.js';

/** Pages asked for at once by a walk (the client's connection pool, src/http/client.ts). */
export const WALK_AHEAD = 8;

/** Where a walk of an empty index starts. */
const NO_MARK: WalkMark = { lastPage: 1, lastPageFirstId: 0, lastPageSize: 0 };

/** The index a rebuild starts from: no line. */
const EMPTY: IndexText = { body: '', lines: 0, mark: NO_MARK };

/** A look-up on a walk: what it wants, and what the walk showed it. */
export class Rider {
  readonly seen: UserListItem[] = [];
  /** Borrowers the walk added to the index while this rode it. */
  walked = 0;
  readonly done: Promise<void>;
  private resolve: () => void = () => {};
  private reject: (error: unknown) => void = () => {};

  constructor(
    readonly wanted: Wanted,
    readonly pageSeen: PageSeen,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** The walk is done with it: it has its borrower, or the walk ended. */
  finish(): void {
    this.resolve();
  }

  /** The walk failed before this had what it came for. */
  fail(error: unknown): void {
    this.reject(error);
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
  /**
   * The index's text in memory is now this (at a rebuild's start: empty; at the end: with the pages
   * read); `grown`: the text shown before, lines added after it.
   */
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
  /** The lines of the pages read by e-mail, made when a look-up asks (`emailLines`). */
  private read = new EmailLines();
  /** How many of `pages` are in `read`. */
  private tabled = 0;
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

  /** The lines of the pages read so far whose e-mail is `email` (the base's are the host's to find). */
  emailLines(email: string): string[] {
    if (this.tabled < this.pages.length) {
      this.read.add(Buffer.concat(this.pages.slice(this.tabled)).toString('utf8'));
      this.tabled = this.pages.length;
    }
    return this.read.lines(email);
  }

  private async run(base: IndexText | undefined): Promise<void> {
    this.rebuild = base === undefined;
    this.base = base;
    this.pages = [];
    this.read = new EmailLines();
    this.tabled = 0;
    this.mark = undefined;
    this.added = 0;
    if (!base) this.host.show(EMPTY, false); // the index it replaces is not believed
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
      const riders = typeof user.email === 'string' ? this.byEmail.get(emailKey(user.email)) : undefined;
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
    rider.finish();
  }

  /** The index written (once, unless nothing changed), then the riders told. */
  private end(): void {
    this.save();
    this.host.closed(this);
    for (const rider of this.riders) rider.finish();
  }

  /**
   * The pages read before the failure written, as at the end (a 5xx after retries, a rate limit,
   * the requests dropped by Ctrl-C: src/bulk/run.ts closes the pool with `abort`), so the next
   * walk goes on from the last of them; then each rider still on it has the error.
   */
  private fail(error: unknown): void {
    // Nothing read (its first page failed): the index stays as it was.
    if (this.mark) this.save();
    this.closing = true;
    this.pages = [];
    this.host.closed(this);
    for (const rider of this.riders) rider.fail(error);
  }

  /** Writes the base and the pages read, up to the last page's mark (unless nothing changed). */
  private save(): void {
    this.closing = true;
    const { base } = this;
    const mark = this.mark ?? base?.mark ?? NO_MARK;
    this.read = new EmailLines();
    if (!base || this.added > 0 || !sameMark(mark, base.mark)) {
      const parts = base ? [Buffer.from(base.body), ...this.pages] : this.pages;
      const read = Buffer.concat(this.pages).toString('utf8');
      // The one time the pages are joined to the index's text: in memory as in the file.
      this.host.show({ body: (base?.body ?? '') + read, lines: (base?.lines ?? 0) + this.added, mark }, !!base);
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
    entries.every((entry, at) => users[at]?.id === entry.id && emailKey(users[at]?.email) === entry.email)
  );
}

/** The index lines of a page's users. */
function pageLines(users: UserListItem[], page: number): string {
  let lines = '';
  for (const { id, email, phone, firstname, lastname } of users) {
    lines += indexLine(id, page, emailKey(email), phoneKey(phone), text(firstname), text(lastname));
  }
  return lines;
}

function sameMark(a: WalkMark, b: WalkMark): boolean {
  return a.lastPage === b.lastPage && a.lastPageFirstId === b.lastPageFirstId && a.lastPageSize === b.lastPageSize;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
