import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { prepareRows, type RowStatement } from './rows.js';

export interface ProductRow {
  id: number;
  org_id: number;
  name: string;
  slug: string;
  created_at: string;
}

export class ProductsRepo {
  private readonly insert: StatementSync;
  private readonly byOrgAndId: RowStatement<ProductRow>;
  private readonly bySlug: StatementSync;

  constructor(db: DatabaseSync) {
    this.insert = db.prepare(
      'INSERT INTO products (org_id, name, slug, created_at) VALUES (:org_id, :name, :slug, :now)',
    );
    this.byOrgAndId = prepareRows(
      db,
      'SELECT id, org_id, name, slug, created_at FROM products WHERE org_id = ? AND id = ?',
    );
    this.bySlug = db.prepare('SELECT id FROM products WHERE org_id = ? AND slug = ?');
  }

  create(orgId: number, name: string, slug: string, now: string): number {
    return Number(this.insert.run({ org_id: orgId, name, slug, now }).lastInsertRowid);
  }

  /** The product, only when it belongs to the organisation. */
  findForOrg(orgId: number, id: number): ProductRow | undefined {
    return this.byOrgAndId.get(orgId, id);
  }

  slugTaken(orgId: number, slug: string): boolean {
    return this.bySlug.get(orgId, slug) !== undefined;
  }
}
