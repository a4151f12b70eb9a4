/**
 * Matching the column names of a bulk file to the fields a row can have, leniently: case, spaces,
 * underscores and dashes do not count (`First Name`, `first_name`, `FIRSTNAME` → `firstname`;
 * `User ID` → `user_id`). A function over a list of known names, so whichever table lists the
 * fields (today ./users.ts and ./loans.ts; the contract's field table next) plugs in unchanged.
 *
 * The closest known name of an unknown header is found with fastest-levenshtein (a small,
 * dependency-free, well-kept edit distance), on the same lenient forms.
 */
import { closest, distance } from 'fastest-levenshtein';

/** The form two names are compared in: lower case, without spaces, underscores, dashes or a BOM. */
export function lenientForm(name: string): string {
  return name
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

/** The known field `header` names, or undefined when it names none. */
export function matchField(header: string, known: readonly string[]): string | undefined {
  const form = lenientForm(header);
  return known.find((field) => lenientForm(field) === form);
}

/** The known field nearest to `header` (for "did you mean"), or undefined when none is close. */
export function closestField(header: string, known: readonly string[]): string | undefined {
  const form = lenientForm(header);
  if (form === '' || known.length === 0) return undefined;
  const forms = known.map(lenientForm);
  const best = closest(form, forms);
  // Close means at most a third of the name changed: `frist name` → firstname, not `colour` → user.
  if (distance(form, best) > Math.max(1, Math.floor(best.length / 3))) return undefined;
  return known[forms.indexOf(best)];
}

/** One line for an unknown header: what it is, the closest field, and every field there is. */
export function unknownHeaderProblem(header: string, known: readonly string[]): string {
  const near = closestField(header, known);
  const hint = near === undefined ? '' : ` Did you mean "${near}"?`;
  return `unknown column "${header}".${hint} The columns a row can have: ${known.join(', ')}.`;
}
