import type { DatabaseSync, StatementSync } from 'node:sqlite';

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
  password_hash: string;
  reference: string;
  source: string;
  now: string;
}

const COLUMNS =
  'id, org_id, firstname, lastname, email, phone, gender, reference, source, is_active, created_at, updated_at';

export class UsersRepo {
  private readonly insert: StatementSync;
  private readonly byEmail: StatementSync;
  private readonly byOrgAndId: StatementSync;
  private readonly page: StatementSync;

  constructor(db: DatabaseSync) {
    this.insert = db.prepare(
      `INSERT INTO users (org_id, firstname, lastname, email, phone, gender, password_hash, reference, source,
                          is_active, created_at, updated_at)
       VALUES (:org_id, :firstname, :lastname, :email, :phone, :gender, :password_hash, :reference, :source,
               1, :now, :now)`,
    );
    // lower(email) matches the unique index users_org_email, so this is an index lookup.
    this.byEmail = db.prepare(`SELECT ${COLUMNS} FROM users WHERE org_id = ? AND lower(email) = lower(?)`);
    this.byOrgAndId = db.prepare(`SELECT ${COLUMNS} FROM users WHERE org_id = ? AND id = ?`);
    this.page = db.prepare(
      `SELECT ${COLUMNS} FROM users
        WHERE org_id = :org_id AND created_at >= :from AND created_at < :before
        ORDER BY id LIMIT :limit OFFSET :offset`,
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
    return this.byEmail.get(orgId, email) as UserRow | undefined;
  }

  findInOrg(orgId: number, id: number): UserRow | undefined {
    return this.byOrgAndId.get(orgId, id) as UserRow | undefined;
  }

  /** A page of the organisation's users created in [from, before), ordered by id. */
  list(orgId: number, from: string, before: string, limit: number, offset: number): UserRow[] {
    return this.page.all({ org_id: orgId, from, before, limit, offset }) as unknown as UserRow[];
  }
}

/** SQLite names an expression index's violation "UNIQUE constraint failed: index 'users_org_email'". */
function isEmailTaken(error: unknown): boolean {
  return error instanceof Error && error.message.includes("UNIQUE constraint failed: index 'users_org_email'");
}
