/**
 * docs/guide.md's "Stages of a loan request" is generated from the state table
 * (src/reference/stages-markdown.ts): it must say what the table says.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/operations.js';
import { STAGE_CHOICES, stateRow } from '../../src/contract/states.js';
import { stagesMarkdown, withStages } from '../../src/reference/stages-markdown.js';

const GUIDE = resolve(import.meta.dirname, '../../docs/guide.md');

describe("docs/guide.md's stages of a loan request", () => {
  it('is the table generated from the state table (run `npm run docs` when this fails)', () => {
    const guide = readFileSync(GUIDE, 'utf8');
    expect(withStages(guide, stagesMarkdown())).toBe(guide);
  });

  it('names every stage an operator may type and every operation on a loan request', () => {
    const table = stagesMarkdown();
    for (const word of STAGE_CHOICES) expect(table).toContain(`\`${word}\``);
    for (const row of OPERATIONS) {
      if (stateRow(row.key) !== undefined) expect(table).toContain(`| \`${row.key}\` |`);
    }
  });
});
