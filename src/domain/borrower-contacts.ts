/**
 * Each borrower's e-mail and phone by id, answered from the text of the local index of borrowers
 * (src/config/user-index.ts) held in memory: for the loan lists' borrower columns, a row at a time.
 * The lines are not parsed up front: two typed arrays hold each line's id and where it starts
 * (12 bytes a borrower beside the text), and a row's line is found by bisecting the ids. The walks
 * write the lines in the list's id order; an index in another order is sorted here first.
 */
import { parseIndexLine } from '../config/user-index.js';

interface Contact {
  email: string;
  /** In its one normal form (`+234…`) when it has one, as the index keeps it. */
  phone: string;
}

export interface BorrowerContacts {
  /** The borrower with this id, or undefined when the index has none. */
  of(id: number): Contact | undefined;
}

/** `body`: the index's lines, `lines` of them (its trailer's count). */
export function contactsOf(body: string, lines: number): BorrowerContacts {
  const { ids, starts } = lineIds(body, lines);
  const of = (id: number): Contact | undefined => {
    let low = 0;
    let high = ids.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = ids[middle] as number;
      if (found < id) low = middle + 1;
      else if (found > id) high = middle - 1;
      else {
        const start = starts[middle] as number;
        const { email, phone } = parseIndexLine(body.slice(start, body.indexOf('\n', start)));
        return { email, phone };
      }
    }
    return undefined;
  };
  return { of };
}

/** Each line's id and start, in id order. */
function lineIds(body: string, lines: number): { ids: Float64Array; starts: Uint32Array } {
  const ids = new Float64Array(lines);
  const starts = new Uint32Array(lines);
  let count = 0;
  let sorted = true;
  let start = 0;
  while (start < body.length && count < lines) {
    const end = body.indexOf('\n', start);
    ids[count] = Number(body.slice(start, body.indexOf('\t', start)));
    starts[count] = start;
    if (count > 0 && (ids[count] as number) < (ids[count - 1] as number)) sorted = false;
    count++;
    if (end === -1) break;
    start = end + 1;
  }
  if (sorted) return { ids: ids.subarray(0, count), starts: starts.subarray(0, count) };
  const order = Array.from({ length: count }, (_, at) => at).sort((a, b) => (ids[a] as number) - (ids[b] as number));
  return {
    ids: Float64Array.from(order, (at) => ids[at] as number),
    starts: Uint32Array.from(order, (at) => starts[at] as number),
  };
}
