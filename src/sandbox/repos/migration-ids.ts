/**
 * Migration 5: ids are never handed out twice. Each table that `sandbox reset` and `sandbox restore`
 * empty or replace is made again with `AUTOINCREMENT`, so a new row's id is above every id the
 * table ever held (SQLite keeps the highest in `sqlite_sequence`), not just above the rows left:
 * after a reset, loan requests a script still sends for the old user 1 no longer land on a new
 * borrower 1 (control/state.ts keeps the sequences across a restore).
 *
 * SQLite cannot add AUTOINCREMENT to a table, so each is copied aside, emptied, dropped, created
 * again with the same columns in the same order, and filled back with the same ids. The migration
 * runs in one transaction with foreign keys on: with them deferred, the references an emptied
 * parent leaves dangling count as violations until its rows are back, and none is left at commit.
 */
export const AUTOINCREMENT_IDS = `
  PRAGMA defer_foreign_keys = ON;

  CREATE TEMP TABLE moving AS SELECT * FROM organisations;
  DELETE FROM organisations;
  DROP TABLE organisations;
  CREATE TABLE organisations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  INSERT INTO organisations SELECT * FROM temp.moving;
  DROP TABLE temp.moving;

  CREATE TEMP TABLE moving AS SELECT * FROM api_keys;
  DELETE FROM api_keys;
  DROP TABLE api_keys;
  CREATE TABLE api_keys (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    org_id INTEGER NOT NULL REFERENCES organisations(id),
    key_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );
  INSERT INTO api_keys SELECT * FROM temp.moving;
  DROP TABLE temp.moving;

  CREATE TEMP TABLE moving AS SELECT * FROM products;
  DELETE FROM products;
  DROP TABLE products;
  CREATE TABLE products (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    org_id INTEGER NOT NULL REFERENCES organisations(id),
    name TEXT NOT NULL,
    slug TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (org_id, slug)
  );
  INSERT INTO products SELECT * FROM temp.moving;
  DROP TABLE temp.moving;

  CREATE TEMP TABLE moving AS SELECT * FROM users;
  DELETE FROM users;
  DROP TABLE users;
  CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
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
    updated_at TEXT NOT NULL,
    org_seq INTEGER NOT NULL DEFAULT 0
  );
  INSERT INTO users SELECT * FROM temp.moving;
  DROP TABLE temp.moving;
  CREATE UNIQUE INDEX users_org_email ON users (org_id, lower(email));
  CREATE INDEX users_org_created ON users (org_id, created_at);
  CREATE UNIQUE INDEX users_org_seq ON users (org_id, org_seq);

  CREATE TEMP TABLE moving AS SELECT * FROM loan_requests;
  DELETE FROM loan_requests;
  DROP TABLE loan_requests;
  CREATE TABLE loan_requests (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
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
  INSERT INTO loan_requests SELECT * FROM temp.moving;
  DROP TABLE temp.moving;
  CREATE INDEX loan_requests_listed ON loan_requests (org_id, product_id, id) WHERE deleted_at IS NULL;

  CREATE TEMP TABLE moving AS SELECT * FROM bank_details;
  DELETE FROM bank_details;
  DROP TABLE bank_details;
  CREATE TABLE bank_details (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
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
  INSERT INTO bank_details SELECT * FROM temp.moving;
  DROP TABLE temp.moving;
  CREATE INDEX bank_details_loan_request ON bank_details (loan_request_id);

  CREATE TEMP TABLE moving AS SELECT * FROM business_info;
  DELETE FROM business_info;
  DROP TABLE business_info;
  CREATE TABLE business_info (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
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
  INSERT INTO business_info SELECT * FROM temp.moving;
  DROP TABLE temp.moving;

  CREATE TEMP TABLE moving AS SELECT * FROM employment;
  DELETE FROM employment;
  DROP TABLE employment;
  CREATE TABLE employment (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
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
  INSERT INTO employment SELECT * FROM temp.moving;
  DROP TABLE temp.moving;

  CREATE TEMP TABLE moving AS SELECT * FROM guarantors;
  DELETE FROM guarantors;
  DROP TABLE guarantors;
  CREATE TABLE guarantors (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
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
  INSERT INTO guarantors SELECT * FROM temp.moving;
  DROP TABLE temp.moving;
  CREATE INDEX guarantors_loan_request ON guarantors (loan_request_id);

  CREATE TEMP TABLE moving AS SELECT * FROM documents;
  DELETE FROM documents;
  DROP TABLE documents;
  CREATE TABLE documents (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
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
  INSERT INTO documents SELECT * FROM temp.moving;
  DROP TABLE temp.moving;
  CREATE INDEX documents_loan_request ON documents (loan_request_id);

  CREATE TEMP TABLE moving AS SELECT * FROM faults;
  DELETE FROM faults;
  DROP TABLE faults;
  CREATE TABLE faults (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
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
  INSERT INTO faults SELECT * FROM temp.moving;
  DROP TABLE temp.moving;
`;
