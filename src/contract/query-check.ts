/**
 * An operation's query checked against its description (./operations.ts) without building a zod
 * schema: the client checks every query it sends, and a command that sends no body (`loanctl user
 * exists`, a script's most frequent call) must not pay for zod's schema API (bench/README.md,
 * start-up). The rules are the ones the zod query schemas of ./field-schemas.ts apply, from the same
 * source: the e-mail pattern and the date and whole-number predicates of ./vocabulary.ts.
 */
import type { QueryParam, QuerySpec } from './operations.js';
import { DATE_PATTERN, EMAIL_PATTERN, isCalendarDay, queryWholeProblem } from './vocabulary.js';

/** A failed check: the parameter and what is wrong with it. */
export interface QueryIssue {
  path: [string];
  message: string;
}

/** The problems of a query (text values, as sent), each naming its parameter; empty when none. */
export function queryIssues(spec: QuerySpec, query: Readonly<Record<string, string>>): QueryIssue[] {
  const issues: QueryIssue[] = [];
  for (const [name, param] of Object.entries(spec)) {
    const value = query[name];
    const message = value === undefined ? (param.optional ? undefined : 'is required') : paramProblem(param, value);
    if (message !== undefined) issues.push({ path: [name], message });
  }
  return issues;
}

function paramProblem(param: QueryParam, value: string): string | undefined {
  switch (param.type) {
    case 'email':
      return EMAIL_PATTERN.test(value) ? undefined : 'must be an e-mail address';
    case 'literal':
      return value === param.value ? undefined : `must be "${param.value}"`;
    case 'text':
      return undefined;
    case 'date':
      if (!DATE_PATTERN.test(value)) return 'must be a date as yyyy-mm-dd';
      return isCalendarDay(value) ? undefined : 'must be a real calendar date';
    case 'positive-int':
      return queryWholeProblem(value, 1);
    case 'non-negative-int':
      return queryWholeProblem(value, 0);
  }
}
