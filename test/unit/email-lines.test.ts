/**
 * The table of the index's lines by e-mail (src/domain/email-lines.ts), fed in parts as a walk
 * reads pages: a line is found whichever part brought it, after the table has grown, and only for
 * its exact e-mail.
 */
import { describe, expect, it } from 'vitest';
import { indexLine } from '../../src/config/user-index.js';
import { EmailLines } from '../../src/domain/email-lines.js';

/** The index lines of borrowers `from` … `to`, on page 1. */
function lines(from: number, to: number): string {
  let text = '';
  for (let id = from; id <= to; id++) text += indexLine(id, 1, `b${id}@parts.example`, '', 'Ada', `N${id}`);
  return text;
}

describe('EmailLines', () => {
  it('finds a line in any part, after the table grew past its first size', () => {
    const table = new EmailLines();
    // Parts of 700 lines: the table (1,024 slots, two a line) grows while the first is added.
    for (let part = 0; part < 5; part++) table.add(lines(part * 700 + 1, part * 700 + 700));
    for (const id of [1, 700, 701, 1999, 3500]) {
      expect(table.lines(`b${id}@parts.example`)).toEqual([
        indexLine(id, 1, `b${id}@parts.example`, '', 'Ada', `N${id}`).trimEnd(),
      ]);
    }
  });

  it('finds every line of an e-mail (one in each part), and none for a prefix of it', () => {
    const table = new EmailLines();
    table.add(lines(1, 3));
    table.add(indexLine(9, 2, 'b1@parts.example', '', 'Again', 'One'));
    expect(table.lines('b1@parts.example')).toHaveLength(2);
    expect(table.lines('b1@parts.exampl')).toEqual([]);
    expect(table.lines('nobody@parts.example')).toEqual([]);
  });
});
