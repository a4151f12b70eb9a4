/**
 * Looking borrowers up by e-mail, phone or name through the local index (src/config/user-index.ts).
 * The API has no search: only a user list paged by number. So:
 *
 * - the first look-up walks the list from page 1 (up to eight pages asked for at once) and writes
 *   every borrower's id, page, e-mail, phone and name into the index: an e-mail's walk stops at its
 *   borrower, a phone's or a name's reads to the end;
 * - a later one first brings the index up to date by walking only the borrowers after the last
 *   page walked: the list is in id order, so those created since are there. That page is read again;
 *   when its users are not the ones the index has for it (ids and e-mails), the list is not the one
 *   walked (a sandbox reset or restored), and the index is rebuilt. Nothing new costs one request;
 * - an entry found in the index is believed only once the server shows it: the page the index names
 *   is asked for, and must hold that id with that e-mail (one request). Any that does not means the
 *   list changed under the index: it is rebuilt and the look-up made again on what the walk read.
 *
 * One instance per run: the index is read once, and concurrent look-ups (a bulk file's rows) share
 * one walk.
 *
 * The loan lists' borrower columns (`contacts`) are answered from memory once the index is up to
 * date, unconfirmed (a page a borrower): the API changes no borrower once created (spec 4.1–4.3),
 * and the update's check of the last page catches a list that is not the one walked.
 */
import {
  type IndexEntry,
  type IndexPaths,
  type IndexText,
  indexLine,
  lastEntries,
  parseIndexLine,
  readIndex,
  type WalkMark,
  writeIndex,
} from '../config/user-index.js';
import type { UserListItem } from '../contract/schemas.js';
import { normalisePhone } from '../contract/vocabulary.js';
import type { ApiClient } from '../http/api-client.js';
import { type BorrowerContacts, contactsOf } from './borrower-contacts.js';
import { type PageSeen, userPages } from './pages.js';

/** Pages asked for at once by a walk (the client's connection pool, src/http/client.ts). */
const WALK_AHEAD = 8;

/** How a look-up tells an entry it wants: from the index's text and from a user the walk read. */
export interface Wanted {
  /** One borrower at most (an e-mail): a walk that finds it stops there. */
  one?: true;
  /** The lines of `body` that may be wanted (a superset is fine: each is checked again by `user`). */
  lines(body: string): string[];
  user(user: UserListItem): boolean;
}

interface Lookup {
  users: UserListItem[];
  /** Borrowers the walk added to the index (0 when it was up to date). */
  walked: number;
  /** Borrowers in the index after the look-up. */
  indexed: number;
}

export class BorrowerIndex {
  private text: IndexText | undefined;
  private walking: Promise<void> | undefined;
  private rebuilt = false;

  /** `api` is asked for on each request: a bulk run swaps its client once the server is down. */
  constructor(
    private readonly api: () => ApiClient,
    private readonly paths: IndexPaths,
    private readonly say: (line: string) => void,
  ) {}

  /**
   * Every user the look-up wants, each one confirmed by the server or just read by a walk.
   * `fresh`: bring the index up to date first (walking the borrowers created since); else only
   * when there is no index yet.
   */
  async find(wanted: Wanted, fresh: boolean, pageSeen: PageSeen = () => {}): Promise<Lookup> {
    let walked = 0;
    const seen: UserListItem[] = [];
    const walk = async (rebuild: boolean) => {
      walked += await this.update(rebuild, (users) => {
        const hits = users.filter(wanted.user);
        seen.push(...hits);
        pageSeen(users.length, hits.length);
        return wanted.one === true && seen.length > 0;
      });
    };
    if (fresh || this.load() === undefined) await walk(false);
    const text = this.load();
    const entries = text ? wanted.lines(text.body).map(parseIndexLine) : [];
    const unseen = entries.filter((entry) => !seen.some((user) => user.id === entry.id));
    const confirmed = await this.confirm(unseen, wanted);
    if (confirmed === undefined) {
      // The list changed under the index: walk it again, and answer from what the walk read.
      seen.length = 0;
      await walk(true);
      return { users: seen.sort(byId), walked, indexed: this.text?.lines ?? 0 };
    }
    return { users: [...seen, ...confirmed].sort(byId), walked, indexed: this.text?.lines ?? 0 };
  }

  /** Whether the index (if any) has a line `wanted`. */
  knows(wanted: Wanted): boolean {
    const text = this.load();
    return text !== undefined && wanted.lines(text.body).length > 0;
  }

  /** Walks the whole list again into the index, unless this run did; the users `wanted` among those read. */
  async rebuildOnce(wanted: Wanted): Promise<Lookup> {
    if (this.rebuilt) return { users: [], walked: 0, indexed: this.text?.lines ?? 0 };
    const seen: UserListItem[] = [];
    const walked = await this.update(true, (users) => {
      seen.push(...users.filter(wanted.user));
      return wanted.one === true && seen.length > 0;
    });
    return { users: seen.sort(byId), walked, indexed: this.text?.lines ?? 0 };
  }

  /** Whether there is an index to bring up to date (else the next walk reads the whole list). */
  exists(): boolean {
    return this.load() !== undefined;
  }

  /**
   * Every borrower's e-mail and phone by id, once the index is brought up to date (the first time:
   * the whole list); `pageSeen` is told of each page read. The index's text stays in memory.
   */
  async contacts(pageSeen: PageSeen = () => {}): Promise<BorrowerContacts> {
    await this.update(false, (users) => {
      pageSeen(users.length, 0);
      return false;
    });
    const text = this.load();
    return contactsOf(text?.body ?? '', text?.lines ?? 0);
  }

  /** The index as read (and checked) once this run; undefined when there is none to believe. */
  private load(): IndexText | undefined {
    if (this.text) return this.text;
    const read = readIndex(this.paths);
    if ('text' in read) this.text = read.text;
    else if ('untrusted' in read) {
      this.say(`loanctl: the borrower index ${this.paths.index} is not believed (${read.untrusted}); rebuilding it.`);
    }
    return this.text;
  }

  /**
   * The entries as the server lists them now, or undefined when one is not where the index says
   * (with that e-mail): the index no longer describes the list. One request a page named.
   */
  private async confirm(entries: IndexEntry[], wanted: Wanted): Promise<UserListItem[] | undefined> {
    const pages = [...new Set(entries.map((entry) => entry.page))];
    const found: UserListItem[] = [];
    let moved = false;
    const check = async (page: number) => {
      const result = await this.api().call('listUsers', { query: { pages: page } });
      const users = (result.data ?? []) as UserListItem[];
      for (const entry of entries.filter((candidate) => candidate.page === page)) {
        const user = users.find((candidate) => candidate.id === entry.id);
        if (!user || String(user.email).toLowerCase() !== entry.email) moved = true;
        else if (wanted.user(user)) found.push(user);
      }
    };
    // Several pages at once, as a walk asks for them.
    for (let at = 0; at < pages.length && !moved; at += WALK_AHEAD) {
      await Promise.all(pages.slice(at, at + WALK_AHEAD).map(check));
    }
    return moved ? undefined : found;
  }

  /**
   * Brings the index up to date (one walk at a time in this run); `each` sees every page's users
   * added, and ends the walk early by returning true: the index then holds the list up to that
   * page, and the next walk goes on from there.
   */
  private async update(rebuild: boolean, each: (users: UserListItem[]) => boolean): Promise<number> {
    while (this.walking) await this.walking.catch(() => {});
    let walked = 0;
    const run = (async () => {
      walked = await this.walk(rebuild, each);
    })();
    this.walking = run;
    try {
      await run;
    } finally {
      this.walking = undefined;
    }
    return walked;
  }

  private async walk(rebuild: boolean, each: (users: UserListItem[]) => boolean): Promise<number> {
    if (rebuild || !this.load()) this.rebuilt = true;
    const known = rebuild ? undefined : this.load();
    const fromPage = known?.mark.lastPage ?? 1;
    // Each page's lines as bytes (outside the JavaScript heap): a million lines held as strings
    // until the end made the walk spend more time collecting garbage than reading pages.
    const newLines: Buffer[] = [];
    let last: WalkMark | undefined;
    let walked = 0;
    for await (const { users, page } of userPages(this.api(), {}, { prefetch: WALK_AHEAD, firstPage: fromPage })) {
      let added = users;
      if (known && page === fromPage) {
        // Not the page the last walk ended on: the list is not the one walked.
        if (!samePage(users, known)) return this.walk(true, each);
        added = users.slice(known.mark.lastPageSize);
      }
      if (added.length > 0) newLines.push(Buffer.from(pageLines(added, page)));
      walked += added.length;
      last = { lastPage: page, lastPageFirstId: users[0]?.id ?? 0, lastPageSize: users.length };
      if (each(added)) break;
    }
    if (known && !last && known.mark.lastPageSize > 0) return this.walk(true, each); // its last page is gone
    const mark = last ?? known?.mark ?? { lastPage: 1, lastPageFirstId: 0, lastPageSize: 0 };
    if (known && walked === 0 && sameMark(mark, known.mark)) return walked;
    const addedBytes = Buffer.concat(newLines);
    newLines.length = 0;
    const body = (known?.body ?? '') + addedBytes.toString('utf8');
    this.text = { body, lines: (known?.lines ?? 0) + walked, mark };
    writeIndex(this.paths, known ? body : addedBytes, mark);
    return walked;
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

function byId(a: UserListItem, b: UserListItem): number {
  return a.id - b.id;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A phone as the index keeps it: its one normal form when it has one, else as given. */
function phoneKey(phone: unknown): string {
  if (typeof phone !== 'string') return '';
  return normalisePhone(phone) ?? phone;
}
