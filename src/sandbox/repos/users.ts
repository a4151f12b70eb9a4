import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { LIMIT_PARAM } from '../db.js';
import { prepareRows, type RowStatement } from './rows.js';

export interface UserRow {
  id: number;
  org_id: number;
  firstname: string;
  lastname: string;
  email: string;
  phone: string;
  gender: string;
  reference: string;
  source: string;
  is_active: number;
  created_at: string;
  updated_at: string;
}

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

/** The columns of a `UserRow`. No password is kept: the sandbox never checks one (a migration dropped it). */
export const USER_COLUMNS =
  'id, org_id, firstname, lastname, email, phone, gender, reference, source, is_active, created_at, updated_at';

export class UsersRepo {
  private readonly insert: StatementSync;
  private readonly byEmail: RowStatement<UserRow>;
  private readonly byOrgAndId: RowStatement<UserRow>;
  private readonly afterSeq: RowStatement<UserRow>;
  private readonly createdIn: RowStatement<UserRow>;

  constructor(db: DatabaseSync) {
    this.insert = db.prepare(
      `INSERT INTO users (org_id, firstname, lastname, email, phone, gender, reference, source,
                          is_active, created_at, updated_at, org_seq)
       VALUES (:org_id, :firstname, :lastname, :email, :phone, :gender, :reference, :source,
               1, :now, :now, (SELECT coalesce(max(org_seq), 0) + 1 FROM users WHERE org_id = :org_id))`,
    );
    // lower(email) matches the unique index users_org_email, so this is an index lookup.
    this.byEmail = prepareRows(db, `SELECT ${USER_COLUMNS} FROM users WHERE org_id = ? AND lower(email) = lower(?)`);
    this.byOrgAndId = prepareRows(db, `SELECT ${USER_COLUMNS} FROM users WHERE org_id = ? AND id = ?`);
    // A seek into users_org_seq: the same cost for the first page and the last.
    this.afterSeq = prepareRows(
      db,
      `SELECT ${USER_COLUMNS} FROM users WHERE org_id = :org_id AND org_seq > :skipped ORDER BY org_seq ${LIMIT_PARAM}`,
    );
    // users_org_created finds the window; its users are then sorted by id: the cost grows with the
    // window (and the page number), not with the organisation.
    this.createdIn = prepareRows(
      db,
      `SELECT ${USER_COLUMNS} FROM users
        WHERE org_id = :org_id AND created_at >= :from AND created_at < :before
        ORDER BY id ${LIMIT_PARAM} OFFSET :offset`,
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
  page(orgId: number, skipped: number, limit: number): UserRow[] {
    return this.afterSeq.all({ org_id: orgId, skipped, limit });
  }

  /** A page of the organisation's users created in [from, before), ordered by id. */
  list(orgId: number, from: string, before: string, limit: number, offset: number): UserRow[] {
    return this.createdIn.all({ org_id: orgId, from, before, limit, offset });
  }
}

/** SQLite names an expression index's violation "UNIQUE constraint failed: index 'users_org_email'". */
function isEmailTaken(error: unknown): boolean {
  return error instanceof Error && error.message.includes("UNIQUE constraint failed: index 'users_org_email'");
}
