import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { RECORDS, type RowOf, storedColumns } from '../../contract/records.js';
import type { CreatedDays } from '../created-range.js';
import { LIMIT_PARAM } from '../db.js';
import { prepareRows, type RowStatement } from './rows.js';

/** A user as stored: the columns both user records are filled from (src/contract/records.ts). */
export type UserRow = RowOf<typeof RECORDS.userListItem> & RowOf<typeof RECORDS.user>;

export interface NewUser {
  org_id: number;
  firstname: string;
  lastname: string;
  email: string;
  phone: string;
  gender: string;
  reference: string;
  source: string;
  now: string;
}

/** A user's creation day, yyyy-mm-dd: the expression users_org_day is built on, written as it is. */
const DAY = 'substr(created_at, 1, 10)';

/** The columns of a `UserRow`. No password is kept: the sandbox never checks one (migration 6). */
export const USER_COLUMNS = storedColumns(RECORDS.userListItem, RECORDS.user).join(', ');

/** A user as a list page reads it: the list item's columns only. */
export type UserListRow = RowOf<typeof RECORDS.userListItem>;

/**
 * The columns of a `UserListRow`, 10 of USER_COLUMNS' 12: a list page's cost is mostly node:sqlite
 * turning each value into a JavaScript one.
 */
const LIST_ITEM_COLUMNS = storedColumns(RECORDS.userListItem).join(', ');

export class UsersRepo {
  private readonly insert: StatementSync;
  private readonly byEmail: RowStatement<UserRow>;
  private readonly byOrgAndId: RowStatement<UserRow>;
  private readonly afterSeq: RowStatement<UserListRow>;
  private readonly dayBefore: StatementSync;
  private readonly earlierInDay: RowStatement<UserListRow>;
  private readonly daysBefore: RowStatement<UserListRow>;

  constructor(db: DatabaseSync) {
    this.insert = db.prepare(
      `INSERT INTO users (org_id, firstname, lastname, email, phone, gender, reference, source,
                          is_active, created_at, updated_at, org_seq, day_seq)
       VALUES (:org_id, :firstname, :lastname, :email, :phone, :gender, :reference, :source,
               1, :now, :now, (SELECT coalesce(max(org_seq), 0) + 1 FROM users WHERE org_id = :org_id),
               (SELECT coalesce(max(day_seq), 0) + 1 FROM users WHERE org_id = :org_id AND ${DAY} = substr(:now, 1, 10)))`,
    );
    // lower(email) matches the unique index users_org_email, so this is an index lookup.
    this.byEmail = prepareRows(db, `SELECT ${USER_COLUMNS} FROM users WHERE org_id = ? AND lower(email) = lower(?)`);
    this.byOrgAndId = prepareRows(db, `SELECT ${USER_COLUMNS} FROM users WHERE org_id = ? AND id = ?`);
    // A seek into users_org_seq: the same cost for the first page and the last.
    this.afterSeq = prepareRows(
      db,
      `SELECT ${LIST_ITEM_COLUMNS} FROM users WHERE org_id = :org_id AND org_seq > :skipped ORDER BY org_seq ${LIMIT_PARAM}`,
    );
    // The window's users are sorted by (day, day_seq) in users_org_day (migration 8); each of these
    // is a seek into it. The newest day before `before` and its last number, which is its count:
    this.dayBefore = db.prepare(
      `SELECT ${DAY} AS day, day_seq AS users FROM users
        WHERE org_id = :org_id AND ${DAY} >= :first_day AND ${DAY} < :before
        ORDER BY ${DAY} DESC, day_seq DESC LIMIT 1`,
    );
    // A page from (day, day_seq) down: that day's users, then the older days'.
    this.earlierInDay = prepareRows(
      db,
      `SELECT ${LIST_ITEM_COLUMNS} FROM users WHERE org_id = :org_id AND ${DAY} = :day AND day_seq <= :day_seq
        ORDER BY day_seq DESC ${LIMIT_PARAM}`,
    );
    this.daysBefore = prepareRows(
      db,
      `SELECT ${LIST_ITEM_COLUMNS} FROM users WHERE org_id = :org_id AND ${DAY} >= :first_day AND ${DAY} < :day
        ORDER BY ${DAY} DESC, day_seq DESC ${LIMIT_PARAM}`,
    );
  }

  /**
   * Inserts the user; returns undefined when the organisation already has the e-mail (the unique
   * index on (org_id, lower(email)) decides, so concurrent creates cannot both succeed).
   */
  create(user: NewUser): number | undefined {
    try {
      return Number(this.insert.run({ ...user }).lastInsertRowid);
    } catch (error) {
      if (isEmailTaken(error)) return undefined;
      throw error;
    }
  }

  findByEmail(orgId: number, email: string): UserRow | undefined {
    return this.byEmail.get(orgId, email);
  }

  findInOrg(orgId: number, id: number): UserRow | undefined {
    return this.byOrgAndId.get(orgId, id);
  }

  /**
   * Up to `limit` of the organisation's users after the first `skipped`, in the order they were
   * created (by id). `org_seq` numbers an organisation's users 1, 2, 3… in that order with no gap
   * (users are never deleted), so skipping is a seek, not a walk.
   */
  page(orgId: number, skipped: number, limit: number): UserListRow[] {
    return this.afterSeq.all({ org_id: orgId, skipped, limit });
  }

  /**
   * Up to `limit` of the organisation's users created on the window's days, after the first
   * `skipped`, newest first: by day, and within a day by id, highest first. The page's first user
   * is found by counting back day by day (one seek a day), so the last page costs what the first
   * does, however many users each day has.
   */
  list(orgId: number, window: CreatedDays, skipped: number, limit: number): UserListRow[] {
    const start = this.pageStart(orgId, window, skipped);
    if (!start) return [];
    const { day, dayIndex } = start;
    const page = this.earlierInDay.all({ org_id: orgId, day, day_seq: dayIndex, limit });
    if (page.length === limit) return page;
    const older = this.daysBefore.all({ org_id: orgId, first_day: window.firstDay, day, limit: limit - page.length });
    return page.concat(older);
  }

  /** The day and day_seq of the window's user after the first `skipped`, newest first; undefined past its end. */
  private pageStart(orgId: number, window: CreatedDays, skipped: number) {
    let before = `${window.lastDay}~`; // after every timestamp of the last day
    let left = skipped;
    for (;;) {
      const found = this.dayBefore.get({ org_id: orgId, first_day: window.firstDay, before }) as
        | { day: string; users: number }
        | undefined;
      if (!found) return undefined;
      if (left < found.users) return { day: found.day, dayIndex: found.users - left };
      left -= found.users;
      before = found.day;
    }
  }
}

/** SQLite names an expression index's violation "UNIQUE constraint failed: index 'users_org_email'". */
function isEmailTaken(error: unknown): boolean {
  return error instanceof Error && error.message.includes("UNIQUE constraint failed: index 'users_org_email'");
}
