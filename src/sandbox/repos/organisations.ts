import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { prepareRows, type RowStatement } from './rows.js';

export interface OrganisationRow {
  id: number;
  name: string;
  created_at: string;
}

export interface KeyOwner {
  key_id: number;
  org_id: number;
  org_name: string;
  /** How the caller came: absent for the API, 'dashboard' for a dashboard sign-in (`approved_by`). */
  via?: string;
}

/** Organisations and their API keys (kept only as SHA-256 digests). */
export class OrganisationsRepo {
  private readonly insertOrg: StatementSync;
  private readonly byId: RowStatement<OrganisationRow>;
  private readonly insertKey: StatementSync;
  private readonly ownerByHash: RowStatement<KeyOwner>;

  constructor(db: DatabaseSync) {
    this.insertOrg = db.prepare('INSERT INTO organisations (name, created_at) VALUES (:name, :now)');
    this.byId = prepareRows(db, 'SELECT id, name, created_at FROM organisations WHERE id = ?');
    this.insertKey = db.prepare(
      'INSERT INTO api_keys (org_id, key_hash, created_at) VALUES (:org_id, :key_hash, :now)',
    );
    this.ownerByHash = prepareRows(
      db,
      `SELECT k.id AS key_id, o.id AS org_id, o.name AS org_name
         FROM api_keys k JOIN organisations o ON o.id = k.org_id
        WHERE k.key_hash = ?`,
    );
  }

  create(name: string, now: string): number {
    return Number(this.insertOrg.run({ name, now }).lastInsertRowid);
  }

  find(id: number): OrganisationRow | undefined {
    return this.byId.get(id);
  }

  addKey(orgId: number, keyHash: string, now: string): number {
    return Number(this.insertKey.run({ org_id: orgId, key_hash: keyHash, now }).lastInsertRowid);
  }

  /** Who owns the key with this digest; looked up on every request, so new keys work at once. */
  keyOwner(keyHash: string): KeyOwner | undefined {
    return this.ownerByHash.get(keyHash);
  }
}
