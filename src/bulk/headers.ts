/**
 * Matching the column names of a bulk file to the fields a row can have, leniently: case, spaces,
 * underscores and dashes do not count (`First Name`, `first_name`, `FIRSTNAME` → `firstname`;
 * `User ID` → `user_id`), and the names spreadsheets usually give a column are understood
 * (`Phone Number`, `Mobile`, `Email Address`, `Surname` …, SYNONYMS below). A function over a list
 * of known names, so whichever table lists the fields (today ./users.ts and ./loans.ts; the
 * contract's field table next) plugs in unchanged.
 *
 * The closest known name of an unknown header is found with fastest-levenshtein (a small,
 * dependency-free, well-kept edit distance), on the same lenient forms.
 */
import { closest, distance } from 'fastest-levenshtein';
import { UsageError } from '../errors.js';

/** The form two names are compared in: lower case, without spaces, underscores, dashes or a BOM. */
function lenientForm(name: string): string {
  return name
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

/**
 * Column names spreadsheets and address books use, in their lenient form, and the field each
 * means. A synonym counts only where its field is one the file's rows can have.
 */
const SYNONYMS: Readonly<Record<string, string>> = {
  givenname: 'firstname',
  forename: 'firstname',
  surname: 'lastname',
  familyname: 'lastname',
  emailaddress: 'email',
  mail: 'email',
  phonenumber: 'phone',
  phoneno: 'phone',
  mobile: 'phone',
  mobilenumber: 'phone',
  mobilephone: 'phone',
  cellphone: 'phone',
  telephone: 'phone',
  tel: 'phone',
  sex: 'gender',
  userid: 'user_id',
  borrowerid: 'user_id',
  loanamount: 'amount',
  loanpurpose: 'purpose',
  // An approvals file (`loan approve --from`).
  id: 'loan',
  loanid: 'loan',
  loanrequest: 'loan',
  loanrequestid: 'loan',
  reference: 'loan',
  loanreference: 'loan',
  amountapproved: 'approved_amount',
  approved: 'approved_amount',
  interestrate: 'rate',
  monthlyrate: 'rate',
  annualinterestrate: 'annual_rate',
  yearlyrate: 'annual_rate',
  apr: 'annual_rate',
  term: 'tenure',
  duration: 'tenure',
  tenureunit: 'tenured_in',
  unit: 'tenured_in',
  interesttype: 'rate_type',
  repaymentfrequency: 'frequency',
  gracedays: 'grace_period',
  notes: 'note',
  comment: 'note',
  comments: 'note',
};

/** The known field `header` names, itself or by a usual synonym, or undefined when it names none. */
export function matchField(header: string, known: readonly string[]): string | undefined {
  const form = lenientForm(header);
  const meant = SYNONYMS[form];
  return known.find((field) => lenientForm(field) === form) ?? known.find((field) => field === meant);
}

/**
 * Columns that likely mean a field by another name, where the file's rows cannot have the named
 * one: a loans file's `E-mail` column is its borrower, `user`. Suggested, never taken silently.
 */
const LIKELY_MEANT: Readonly<Record<string, string>> = {
  email: 'user',
  emailaddress: 'user',
  mail: 'user',
  borroweremail: 'user',
  borrower: 'user',
  customer: 'user',
  customerid: 'user_id',
  product: 'product',
  productid: 'product',
};

/** The known field nearest to `header` (for "did you mean"), or undefined when none is close. */
export function closestField(header: string, known: readonly string[]): string | undefined {
  const form = lenientForm(header);
  if (form === '' || known.length === 0) return undefined;
  const likely = LIKELY_MEANT[form];
  if (likely !== undefined && known.includes(likely)) return likely;
  const forms = known.map(lenientForm);
  const best = closest(form, forms);
  // Close means at most a third of the name changed: `frist name` → firstname, not `colour` → user.
  if (distance(form, best) > Math.max(1, Math.floor(best.length / 3))) return undefined;
  return known[forms.indexOf(best)];
}

/** The columns a file's rows can have, and those each row needs (each a list of alternatives). */
export interface Columns {
  known: readonly string[];
  /** Each entry one field the rows need, by any of its names (`['user', 'user_id']`). */
  required: readonly (readonly string[])[];
}

export interface HeaderFields {
  /** The field of each column, in order ('' for a column with no name, or one with no field). */
  keys: string[];
  /** The columns that give no field, as written: ignored (or, `strict`, a problem). */
  unknown: string[];
  /**
   * Every problem of the header, in one line naming each column concerned (undefined: none): a
   * needed field no column gives, two columns that give the same field, and (`strict`) the
   * columns that give none — with the closest field of each.
   */
  problem: string | undefined;
}

/** The fields a header's columns give, the columns that give none, and all that is wrong with it at once. */
export function headerFields(header: readonly string[], columns: Columns, strict = false): HeaderFields {
  const { known, required } = columns;
  const keys = header.map((cell) => (cell.trim() === '' ? '' : (matchField(cell, known) ?? '')));
  const unknown = header.filter((cell, index) => cell.trim() !== '' && keys[index] === '').map((cell) => cell.trim());
  const problems: string[] = [];
  const missing = required.filter((names) => !names.some((name) => keys.includes(name)));
  if (missing.length > 0) {
    problems.push(`no column gives ${missing.map((names) => names.join(' or ')).join(', ')}`);
  }
  for (const field of new Set(keys.filter((key) => key !== ''))) {
    const given = header.filter((_cell, index) => keys[index] === field);
    if (given.length > 1) {
      problems.push(
        `columns ${namedList(
          given.map((cell) => shownName(cell.trim())),
          ' and ',
        )} all give ${field}`,
      );
    }
  }
  // Unknown columns are a problem with --strict; else they are named with the others, as the likely cause.
  if (unknown.length > 0 && (strict || problems.length > 0)) problems.push(describeUnknown(unknown, known));
  if (problems.length === 0) return { keys, unknown, problem: undefined };
  return { keys, unknown, problem: `${problems.join('; ')}. The columns a row can have: ${known.join(', ')}.` };
}

/** `unknown columns "Frist Name" (did you mean "firstname"?), "Notes"` (or `unknown key …`, NDJSON's). */
function describeUnknown(unknown: readonly string[], known: readonly string[], what = 'column'): string {
  const named = unknown.slice(0, NAMED_AT_MOST).map((cell) => {
    const near = closestField(cell, known);
    return near === undefined ? shownName(cell) : `${shownName(cell)} (did you mean "${near}"?)`;
  });
  const more = unknown.length - named.length;
  return `unknown ${what}${unknown.length === 1 ? '' : 's'} ${named.join(', ')}${more > 0 ? ` and ${more.toLocaleString('en-US')} more` : ''}`;
}

/**
 * How many columns or keys a message names: a header of 100,000 columns is still one line a
 * reader can take in, with the count of the rest.
 */
const NAMED_AT_MOST = 10;
/** The longest column name a message shows whole. */
const NAME_SHOWN_AT_MOST = 40;

/** A column name as a message shows it: quoted, cut short past NAME_SHOWN_AT_MOST characters. */
function shownName(cell: string): string {
  return `"${cell.length > NAME_SHOWN_AT_MOST ? `${cell.slice(0, NAME_SHOWN_AT_MOST)}…` : cell}"`;
}

/** `"a" and "b" and 3 more`: at most NAMED_AT_MOST of `names`, then how many more. */
function namedList(names: readonly string[], separator: string): string {
  const more = names.length - NAMED_AT_MOST;
  return `${names.slice(0, NAMED_AT_MOST).join(separator)}${more > 0 ? ` and ${more.toLocaleString('en-US')} more` : ''}`;
}

export interface UnknownFieldRule {
  known: readonly string[];
  /** `--strict`: an unknown NDJSON key makes its row an error (CSV's columns are refused by ./csv-rows.ts). */
  strict: boolean;
  /** What a row makes: `user`, `loan request`. */
  noun: string;
}

/**
 * What a run does with what gives no field: the CSV columns are named at once in one warning; an
 * NDJSON key is named the first time it is seen (rows may differ), or with `strict` makes its row
 * an error. Returns the check of each row's fields.
 */
export function unknownFieldCheck(
  source: { name: string; unknownColumns?: readonly string[] | undefined },
  { known, strict, noun }: UnknownFieldRule,
  warn: (line: string) => void,
): (fields: Record<string, unknown>) => void {
  const { name, unknownColumns = [] } = source;
  if (unknownColumns.length > 0) {
    warn(
      `${name}: ignoring ${describeUnknown(unknownColumns, known)}: a ${noun} has no such field (--strict refuses them).`,
    );
  }
  const warned = new Set<string>();
  return (fields) => {
    const unknown = Object.keys(fields).filter((key) => !known.includes(key));
    if (strict && unknown.length > 0) {
      throw new UsageError(`${describeUnknown(unknown, known, 'key')}: a ${noun} has no such field (--strict).`);
    }
    const fresh = unknown.filter((key) => !warned.has(key));
    // Said like the CSV's unknown columns; a file of ever-new keys stops being named after a few.
    if (fresh.length === 0 || warned.size >= NAMED_AT_MOST) return;
    for (const key of fresh) warned.add(key);
    const last = warned.size >= NAMED_AT_MOST ? '; further unknown keys are not named' : '';
    warn(
      `${name}: ignoring ${describeUnknown(fresh, known, 'key')}: a ${noun} has no such field (--strict refuses them)${last}.`,
    );
  };
}
