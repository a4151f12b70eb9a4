import type { SandboxDb } from '../db.js';
import { AttachmentsRepo } from './attachments.js';
import { LoanRequestsRepo } from './loan-requests.js';
import { OrganisationsRepo } from './organisations.js';
import { ProductsRepo } from './products.js';
import { UsersRepo } from './users.js';

export type { LoanRequestRow } from './loan-requests.js';
export type { KeyOwner } from './organisations.js';
export type { ProductRow } from './products.js';
export type { UserRow } from './users.js';

/** Every repository over one database, each with its statements prepared once. */
export interface Repos {
  organisations: OrganisationsRepo;
  products: ProductsRepo;
  users: UsersRepo;
  loanRequests: LoanRequestsRepo;
  attachments: AttachmentsRepo;
}

export function createRepos(db: SandboxDb): Repos {
  return {
    organisations: new OrganisationsRepo(db.sqlite),
    products: new ProductsRepo(db.sqlite),
    users: new UsersRepo(db.sqlite),
    loanRequests: new LoanRequestsRepo(db.sqlite),
    attachments: new AttachmentsRepo(db.sqlite),
  };
}
