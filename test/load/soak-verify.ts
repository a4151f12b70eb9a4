/**
 * What the soak (test/load/soak.load.ts) finds in the database after the last restart, read from
 * the SQLite file itself (read-only, beside the running sandbox): every acknowledged write of the
 * ledger, no borrower or employment twice, and SQLite's own integrity and foreign-key checks.
 */
import { DatabaseSync } from 'node:sqlite';
import type { Round } from './soak-flow.js';

export interface Findings {
  integrity: unknown[];
  foreignKeys: unknown[];
  /** Acknowledged writes that are not there, one line each. */
  missing: string[];
  /** E-mails with more than one borrower, and loan requests with more than one employment. */
  duplicateBorrowers: unknown[];
  duplicateEmployment: unknown[];
  /** Acknowledged writes checked, by operation key. */
  checked: Record<string, number>;
}

/** For each acknowledged write, the query that finds it (`?` is the round's loan request id). */
const PRESENT: Record<string, string> = {
  addBankDetails: 'SELECT count(*) AS n FROM bank_details WHERE loan_request_id = ?',
  addBusinessInfo: 'SELECT count(*) AS n FROM business_info WHERE loan_request_id = ?',
  addEmployment: 'SELECT count(*) AS n FROM employment WHERE loan_request_id = ?',
  addGuarantor: 'SELECT count(*) AS n FROM guarantors WHERE loan_request_id = ?',
  uploadDocument: 'SELECT count(*) AS n FROM documents WHERE loan_request_id = ?',
  submitLoanRequest: "SELECT count(*) AS n FROM loan_requests WHERE id = ? AND user_status = 'submitted'",
  approveLoanRequest: "SELECT count(*) AS n FROM loan_requests WHERE id = ? AND lender_status = 'approved'",
};

export function verifyDatabase(dbPath: string, rounds: readonly Round[]): Findings {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    // Each statement prepared once: a quiet run acknowledges some 140,000 writes to look up.
    const statements = new Map<string, ReturnType<DatabaseSync['prepare']>>();
    const count = (sql: string, ...args: Array<string | number>) => {
      const statement = statements.get(sql) ?? db.prepare(sql);
      statements.set(sql, statement);
      return (statement.get(...args) as { n: number }).n;
    };
    // Users are looked up by e-mail, which no index of theirs starts with: read them once.
    const emails = new Set(
      (db.prepare('SELECT lower(email) AS email FROM users').all() as { email: string }[]).map((row) => row.email),
    );
    const findings: Findings = {
      integrity: db.prepare('PRAGMA integrity_check').all(),
      foreignKeys: db.prepare('PRAGMA foreign_key_check').all(),
      missing: [],
      duplicateBorrowers: db
        .prepare('SELECT org_id, lower(email) AS email, count(*) AS n FROM users GROUP BY 1, 2 HAVING n > 1')
        .all(),
      duplicateEmployment: db
        .prepare('SELECT loan_request_id, count(*) AS n FROM employment GROUP BY 1 HAVING n > 1')
        .all(),
      checked: {},
    };
    const found = (key: string, ok: boolean, what: string) => {
      findings.checked[key] = (findings.checked[key] ?? 0) + 1;
      if (!ok) findings.missing.push(`${key}: ${what}`);
    };
    for (const round of rounds) {
      if (round.acked.has('createUser')) {
        // Twice would be a duplicate borrower: see `duplicateBorrowers`.
        found('createUser', emails.has(round.email.toLowerCase()), round.email);
      }
      const loanId = round.loanId;
      if (loanId === undefined) continue;
      found(
        'createLoanRequest',
        count('SELECT count(*) AS n FROM loan_requests WHERE id = ? AND user_id = ?', loanId, round.userId ?? -1) === 1,
        `loan request ${loanId} of user ${round.userId}`,
      );
      for (const [key, sql] of Object.entries(PRESENT)) {
        if (round.acked.has(key)) found(key, count(sql, loanId) >= 1, `loan request ${loanId}`);
      }
    }
    return findings;
  } finally {
    db.close();
  }
}
