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
 * One instance per run: the index is read once, and concurrent look-ups (a bulk file's rows) ride
 * one walk (./borrower-walk.ts), which reads each page once and goes as far as the newest borrower
 * they want.
 *
 * The loan lists' borrower columns (`contacts`) are answered from memory once the index is up to
 * date, unconfirmed (a page a borrower): the API changes no borrower once created (spec 4.1–4.3),
 * and the update's check of the last page catches a list that is not the one walked.
 */
import {
  emailKey,
  type IndexEntry,
  type IndexPaths,
  type IndexText,
  parseIndexLine,
  readIndex,
} from '../config/user-index.js';
import type { UserListItem } from '../contract/schemas.js';
import type { ApiClient } from '../http/api-client.js';
import { type BorrowerContacts, contactsOf } from './borrower-contacts.js';
import { Rider, WALK_AHEAD, Walk, type WalkHost } from './borrower-walk.js';
import { EmailLines } from './email-lines.js';
import type { PageSeen } from './pages.js';

/** How a look-up tells an entry it wants: from the index's text and from a user the walk read. */
export interface Wanted {
  /**
   * An e-mail (its `emailKey`, src/config/user-index.ts): one borrower at most, so a walk that
   * finds it stops there. A walk finds the riders that want one by it, one look-up a user however
   * many ride.
   */
  email?: string;
  /** The lines of `body` that may be wanted (a superset is fine: each is checked again by `user`). */
  lines(body: string): string[];
  user(user: UserListItem): boolean;
}

/** Nobody: what rides a walk that only brings the index up to date. */
const NOBODY: Wanted = { lines: () => [], user: () => false };

interface Lookup {
  users: UserListItem[];
  /** Borrowers the walk added to the index (0 when it was up to date). */
  walked: number;
  /** Borrowers in the index after the look-up. */
  indexed: number;
}

/**
 * How far a look-up walks: `index` only when there is no index yet; `update` on from the last page
 * walked (an e-mail the index knows by then needs no walk); `rebuild` the whole list afresh.
 */
type Reach = 'index' | 'update' | 'rebuild';

export class BorrowerIndex {
  private text: IndexText | undefined;
  private walk: Walk | undefined;
  private rebuilt = false;
  /** The index's lines by e-mail, made when a run searches for a second e-mail. */
  private emails: EmailLines | undefined;
  /** How much of the index's text `emails` holds. */
  private tabled = 0;
  /** The first e-mail this run searched for: searching for it again is no reason for a table. */
  private firstEmail: string | undefined;
  /** How many times a walk replaced the index's text with a new one (a rebuild) in this run. */
  private replaced = 0;
  private readonly host: WalkHost;

  /** `api` is asked for on each request: a bulk run swaps its client once the server is down. */
  constructor(
    api: () => ApiClient,
    private readonly paths: IndexPaths,
    private readonly say: (line: string) => void,
  ) {
    this.host = {
      api,
      paths,
      show: (text, grown) => {
        this.text = text;
        if (grown) return;
        this.emails = undefined;
        this.replaced++;
      },
      closed: (walk) => {
        if (walk.rebuild) this.rebuilt = true;
        if (this.walk === walk) this.walk = undefined;
      },
    };
  }

  /**
   * Every user the look-up wants, each one confirmed by the server or just read by a walk.
   * `fresh`: bring the index up to date first (walking the borrowers created since); else only
   * when there is no index yet.
   */
  find(wanted: Wanted, fresh: boolean, pageSeen: PageSeen = () => {}): Promise<Lookup> {
    return this.lookUp(wanted, fresh ? 'update' : 'index', pageSeen);
  }

  /** Whether the index (if any) has a line `wanted`. */
  knows(wanted: Wanted): boolean {
    const text = this.load();
    return text !== undefined && this.linesOf(wanted, text).length > 0;
  }

  /**
   * Walks the whole list again into the index, unless this run did (then the index, as rebuilt,
   * answers); the users `wanted` among those read.
   */
  rebuildOnce(wanted: Wanted): Promise<Lookup> {
    return this.lookUp(wanted, this.rebuilt && !this.walk?.rebuild ? 'index' : 'rebuild');
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
    await this.ride(new Rider(NOBODY, pageSeen), false);
    const text = this.load();
    return contactsOf(text?.body ?? '', text?.lines ?? 0);
  }

  private async lookUp(wanted: Wanted, reach: Reach, pageSeen: PageSeen = () => {}): Promise<Lookup> {
    const rider = new Rider(wanted, pageSeen);
    if (reach !== 'index' || this.load() === undefined) await this.ride(rider, reach === 'rebuild');
    const answer = (users: UserListItem[], walked = 0) => ({
      users: users.sort(byId),
      walked: rider.walked + walked,
      indexed: this.text?.lines ?? 0,
    });
    if (rider.satisfied) return answer(rider.seen);
    const text = this.load();
    const replaced = this.replaced;
    const entries = text ? this.linesOf(wanted, text).map(parseIndexLine) : [];
    const unseen = entries.filter((entry) => !rider.seen.some((user) => user.id === entry.id));
    const confirmed = await this.confirm(unseen, wanted);
    if (confirmed) return answer([...rider.seen, ...confirmed]);
    if (reach === 'rebuild') return answer(rider.seen);
    // The list changed under the index: walk it again, and answer from what that walk read. Unless
    // another look-up's walk rebuilt the index while this one's pages were out (a bulk file's rows
    // confirm at once): a second rebuild would read the list from page 1 again, where walking on
    // from the rebuilt index's mark (if it stopped short of this borrower) is enough.
    const again = await this.lookUp(wanted, this.replaced === replaced ? 'rebuild' : 'update', pageSeen);
    return answer(again.users, again.walked);
  }

  /**
   * `rider` rides the walk in progress, else a walk of its own; `rebuild`: one reading the list
   * afresh. An e-mail the index knows by then (a walk read it) needs no walk.
   */
  private async ride(rider: Rider, rebuild: boolean): Promise<void> {
    for (;;) {
      const walk = this.walk;
      if (walk && (walk.closing || (rebuild && !walk.rebuild))) {
        await walk.ended;
        continue;
      }
      if (!(rebuild && !walk) && rider.wanted.email !== undefined && this.knows(rider.wanted)) return;
      if (walk) walk.join(rider);
      else {
        this.walk = new Walk(this.host, rebuild ? undefined : this.load(), rider);
        this.rebuilt ||= this.walk.rebuild;
      }
      break;
    }
    await rider.done;
  }

  /**
   * The lines of the index `wanted` may be, and of the pages the walk in progress has read. An
   * e-mail's: a run's first e-mail is searched in the whole text (one look-up searches it twice);
   * from a second e-mail on (a bulk file's rows), a table of the lines by e-mail answers. (A phone
   * or a name is searched once its walk has ended.)
   */
  private linesOf(wanted: Wanted, text: IndexText): string[] {
    const { email } = wanted;
    if (email === undefined) return wanted.lines(text.body);
    const walked = this.walk?.emailLines(email) ?? [];
    this.firstEmail ??= email;
    const indexed =
      this.emails || email !== this.firstEmail ? this.tableOf(text).lines(email) : wanted.lines(text.body);
    return walked.length > 0 ? [...indexed, ...walked] : indexed;
  }

  /** The table of the index's lines by e-mail, brought up to its text (which only grows until a rebuild). */
  private tableOf(text: IndexText): EmailLines {
    if (!this.emails) {
      this.emails = new EmailLines();
      this.tabled = 0;
    }
    if (this.tabled < text.body.length) this.emails.add(text.body.slice(this.tabled));
    this.tabled = text.body.length;
    return this.emails;
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
      const result = await this.host.api().call('listUsers', { query: { pages: page } });
      const users = (result.data ?? []) as UserListItem[];
      for (const entry of entries.filter((candidate) => candidate.page === page)) {
        const user = users.find((candidate) => candidate.id === entry.id);
        if (!user || emailKey(user.email) !== entry.email) moved = true;
        else if (wanted.user(user)) found.push(user);
      }
    };
    // Several pages at once, as a walk asks for them.
    for (let at = 0; at < pages.length && !moved; at += WALK_AHEAD) {
      await Promise.all(pages.slice(at, at + WALK_AHEAD).map(check));
    }
    return moved ? undefined : found;
  }
}

function byId(a: UserListItem, b: UserListItem): number {
  return a.id - b.id;
}
