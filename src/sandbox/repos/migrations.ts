/**
 * The sandbox's schema, as an ordered list of migrations. Migration N (1-based) moves the database
 * from `PRAGMA user_version` N-1 to N. Never edit a migration that has shipped: append a new one.
 */
import { AUTOINCREMENT_IDS } from './migration-ids.js';

export const MIGRATIONS: readonly string[] = [
  // 1: the whole first schema.
  `
  CREATE TABLE organisations (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL
  );

  CREATE TABLE api_keys (
    id INTEGER PRIMARY KEY,
    org_id INTEGER NOT NULL REFERENCES organisations(id),
    key_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );

  CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    org_id INTEGER NOT NULL REFERENCES organisations(id),
    name TEXT NOT NULL,
    slug TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (org_id, slug)
  );

  CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    org_id INTEGER NOT NULL REFERENCES organisations(id),
    firstname TEXT NOT NULL,
    lastname TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    gender TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    reference TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL,
    is_active INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX users_org_email ON users (org_id, lower(email));
  CREATE INDEX users_org_created ON users (org_id, created_at);

  CREATE TABLE loan_requests (
    id INTEGER PRIMARY KEY,
    org_id INTEGER NOT NULL REFERENCES organisations(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    product_id INTEGER NOT NULL REFERENCES products(id),
    reference TEXT NOT NULL UNIQUE,
    amount REAL NOT NULL,
    purpose TEXT NOT NULL,
    status TEXT NOT NULL,
    lender_status TEXT NOT NULL,
    user_status TEXT NOT NULL,
    active INTEGER NOT NULL,
    progress TEXT,
    debit_mandate_next_step TEXT NOT NULL,
    approved_amount REAL NOT NULL DEFAULT 0,
    rate REAL NOT NULL DEFAULT 0,
    tenure REAL NOT NULL DEFAULT 0,
    tenured_in TEXT NOT NULL DEFAULT '',
    rate_type TEXT NOT NULL DEFAULT '',
    frequency TEXT NOT NULL DEFAULT '',
    grace_period REAL NOT NULL DEFAULT 0,
    exclude_weekends INTEGER NOT NULL DEFAULT 0,
    zero_interest INTEGER NOT NULL DEFAULT 0,
    estimated_repayment REAL NOT NULL DEFAULT 0,
    note TEXT NOT NULL DEFAULT '',
    linker_ids TEXT,
    linker_tokenized INTEGER,
    approved_by_id INTEGER,
    approved_by TEXT,
    approved_at TEXT,
    final_approval_date TEXT,
    submitted_at TEXT,
    deleted_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX loan_requests_org_product ON loan_requests (org_id, product_id, id);

  CREATE TABLE bank_details (
    id INTEGER PRIMARY KEY,
    org_id INTEGER NOT NULL REFERENCES organisations(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    loan_request_id INTEGER NOT NULL REFERENCES loan_requests(id),
    code TEXT NOT NULL,
    account_number TEXT NOT NULL,
    account_name TEXT NOT NULL,
    bank_name TEXT NOT NULL,
    linker_id TEXT UNIQUE,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX bank_details_loan_request ON bank_details (loan_request_id);

  CREATE TABLE business_info (
    id INTEGER PRIMARY KEY,
    org_id INTEGER NOT NULL REFERENCES organisations(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    loan_request_id INTEGER NOT NULL UNIQUE REFERENCES loan_requests(id),
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    industry TEXT NOT NULL,
    description TEXT NOT NULL,
    registered INTEGER NOT NULL,
    registration_number TEXT NOT NULL,
    established_on TEXT NOT NULL,
    physical_location INTEGER NOT NULL,
    number_of_locations INTEGER NOT NULL,
    location_status TEXT NOT NULL,
    average_monthly_income INTEGER NOT NULL,
    last_twelve_months_income INTEGER NOT NULL,
    primary_payments_collection_method TEXT NOT NULL,
    number_of_employees INTEGER NOT NULL,
    monthly_salary_cost INTEGER NOT NULL,
    annual_rent_cost INTEGER NOT NULL,
    monthly_electricity_cost INTEGER NOT NULL,
    monthly_ads_cost INTEGER NOT NULL,
    monthly_marketing_cost INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );

  CREATE TABLE employment (
    id INTEGER PRIMARY KEY,
    org_id INTEGER NOT NULL REFERENCES organisations(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    loan_request_id INTEGER NOT NULL UNIQUE REFERENCES loan_requests(id),
    status TEXT NOT NULL,
    company_name TEXT NOT NULL,
    company_address TEXT NOT NULL,
    position TEXT NOT NULL,
    salary INTEGER NOT NULL,
    manager TEXT NOT NULL,
    manager_phone TEXT NOT NULL,
    manager_email TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );

  CREATE TABLE guarantors (
    id INTEGER PRIMARY KEY,
    org_id INTEGER NOT NULL REFERENCES organisations(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    loan_request_id INTEGER NOT NULL REFERENCES loan_requests(id),
    firstname TEXT NOT NULL,
    lastname TEXT NOT NULL,
    gender TEXT NOT NULL,
    relationship TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX guarantors_loan_request ON guarantors (loan_request_id);

  CREATE TABLE documents (
    id INTEGER PRIMARY KEY,
    org_id INTEGER NOT NULL REFERENCES organisations(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    loan_request_id INTEGER NOT NULL REFERENCES loan_requests(id),
    type TEXT NOT NULL,
    title TEXT NOT NULL,
    reference TEXT NOT NULL UNIQUE,
    number TEXT NOT NULL,
    document_url TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX documents_loan_request ON documents (loan_request_id);
  `,

  // 2: pages that cost the same at any depth and any size.
  //   - users.org_seq numbers each organisation's users 1, 2, 3… in id order, so that page N of the
  //     user list is a seek (org_seq > (N-1) × size) instead of an OFFSET that walks every user
  //     before it. Users are never deleted, so the numbers stay dense.
  //   - the loan request list's index holds only the rows it lists (not deleted), so that a page
  //     never steps over deleted rows.
  `
  ALTER TABLE users ADD COLUMN org_seq INTEGER NOT NULL DEFAULT 0;
  UPDATE users SET org_seq = numbered.seq
    FROM (SELECT id, row_number() OVER (PARTITION BY org_id ORDER BY id) AS seq FROM users) AS numbered
   WHERE users.id = numbered.id;
  CREATE UNIQUE INDEX users_org_seq ON users (org_id, org_seq);

  DROP INDEX loan_requests_org_product;
  CREATE INDEX loan_requests_listed ON loan_requests (org_id, product_id, id) WHERE deleted_at IS NULL;
  `,
  // 3: the sandbox's clock (`loanctl sandbox clock`): one row, the offset from real time in ms,
  //    read on every request so a running server follows a change made by another process.
  `
  CREATE TABLE sandbox_clock (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    offset_ms INTEGER NOT NULL
  );
  `,
  // 4: faults injected into the replies (src/sandbox/faults): kept in the database so that a
  //    running sandbox picks up `loanctl sandbox faults add` from another process without restart.
  //    matched and fired count the requests each fault matched and answered, so `--times` and a
  //    seeded sequence carry on across restarts.
  `
  CREATE TABLE faults (
    id INTEGER PRIMARY KEY,
    method TEXT,
    path TEXT NOT NULL,
    http INTEGER,
    envelope TEXT,
    message TEXT,
    latency_ms INTEGER NOT NULL DEFAULT 0,
    probability REAL NOT NULL DEFAULT 1,
    seed INTEGER,
    times INTEGER,
    matched INTEGER NOT NULL DEFAULT 0,
    fired INTEGER NOT NULL DEFAULT 0,
    preset TEXT,
    created_at TEXT NOT NULL
  );
  `,
  // 5: ids never handed out twice, across reset and restore (./migration-ids.ts).
  AUTOINCREMENT_IDS,
  // 6: no password-derived value is kept: the sandbox never checks a borrower's
  //    password, so it keeps nothing of it, and a bulk import of real data leaves none behind.
  //    Dropping the column alone would leave the old hashes in freed space in the file (SQLite
  //    rewrites rows in place): with secure_delete the rows are blanked, deleted (their pages
  //    zeroed) and written back without the column. Foreign keys are checked at commit, when every
  //    user is back. Snapshots taken from now on (VACUUM INTO) hold none either.
  `
  PRAGMA secure_delete = ON;
  PRAGMA defer_foreign_keys = ON;
  UPDATE users SET password_hash = '';
  CREATE TEMP TABLE users_without_passwords AS SELECT * FROM users;
  ALTER TABLE temp.users_without_passwords DROP COLUMN password_hash;
  DELETE FROM users;
  ALTER TABLE users DROP COLUMN password_hash;
  INSERT INTO users SELECT * FROM temp.users_without_passwords;
  DROP TABLE temp.users_without_passwords;
  PRAGMA secure_delete = OFF;
  `,
  // 7: the dashboard's lists, read by keyset (src/sandbox/dashboard/queries.ts), each with an index
  //    that matches its order, so a page costs the same at any size. SQLite appends the rowid (the
  //    id) to every index: (org_id) is (org_id, id). The queue's condition is "waiting for approval"
  //    as src/contract/states.ts waitingSql writes it (test/sandbox/dashboard-paging.test.ts checks
  //    each query uses its index).
  `
  CREATE INDEX users_org ON users (org_id);
  CREATE INDEX loan_requests_org ON loan_requests (org_id) WHERE deleted_at IS NULL;
  CREATE INDEX loan_requests_org_status ON loan_requests (org_id, status) WHERE deleted_at IS NULL;
  CREATE INDEX loan_requests_org_lender_status ON loan_requests (org_id, lender_status) WHERE deleted_at IS NULL;
  CREATE INDEX loan_requests_org_user_status ON loan_requests (org_id, user_status) WHERE deleted_at IS NULL;
  CREATE INDEX loan_requests_queue ON loan_requests (org_id, submitted_at)
    WHERE deleted_at IS NULL AND user_status = 'submitted' AND lender_status <> 'approved';
  `,
  // 8: the user list inside a date window costs the same at any size and on any page, newest first.
  //    day_seq numbers each organisation's users created on the same UTC day 1, 2, 3… in id order
  //    (given on insert, like org_seq, and never renumbered: a new user always has the day's highest
  //    id), so a day's last number is its count. Page N of a window is found by stepping back from
  //    day to day through the index (one seek a day with users: a few hundred for a year) and then
  //    seeking to (day, day_seq), never an OFFSET.
  `
  ALTER TABLE users ADD COLUMN day_seq INTEGER NOT NULL DEFAULT 0;
  UPDATE users SET day_seq = numbered.seq
    FROM (SELECT id, row_number() OVER (PARTITION BY org_id, substr(created_at, 1, 10) ORDER BY id) AS seq
            FROM users) AS numbered
   WHERE users.id = numbered.id;
  CREATE INDEX users_org_day ON users (org_id, substr(created_at, 1, 10), day_seq);
  `,
  // 9: the dashboard's loan requests filtered by any of the state fields, or several at once: one
  //    index of all three in place of one per field. A filter reads one seek per combination of
  //    the three fields' values that agrees with it, merged in id order (src/sandbox/dashboard/
  //    queries.ts), so a combination that matches nothing costs a few seeks at any size.
  `
  CREATE INDEX loan_requests_org_states ON loan_requests (org_id, status, lender_status, user_status)
    WHERE deleted_at IS NULL;
  DROP INDEX loan_requests_org_status;
  DROP INDEX loan_requests_org_lender_status;
  DROP INDEX loan_requests_org_user_status;
  `,
  // 10: the dashboard's borrowers searched by phone: a seek of (org_id, phone), newest first by the
  //    rowid SQLite appends, so a page costs the same at any size. Every stored phone is in the one
  //    form the API accepts (PHONE_PATTERN, src/contract/vocabulary.ts), so the column is compared
  //    as it is: the search brings what the operator typed to that form first.
  `
  CREATE INDEX users_org_phone ON users (org_id, phone);
  `,
];
