/**
 * docs/architecture.md#where-new-code-goes, "A verb in one place": a noun's index.ts only lists its verbs (and says
 * what the noun is); each verb's arguments, flags and action live in its own `-verb.ts` file
 * (src/commands/common/verb.ts), or come from its contract row.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const COMMANDS = resolve(import.meta.dirname, '../../src/commands');

/** What declares a verb rather than lists one. */
const DECLARATION = /\.(option|requiredOption|addOption|argument|addArgument|action)\(/;

const nouns = readdirSync(COMMANDS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'common')
  .map((entry) => entry.name);

describe("a noun's index.ts", () => {
  it('covers the nouns whose verbs are written as common/verb.ts says', () => {
    expect(nouns).toEqual(
      expect.arrayContaining(['api', 'cache', 'completion', 'demo', 'loan', 'profile', 'sandbox', 'user']),
    );
  });

  it.each(nouns)('%s/index.ts declares no argument, flag or action: it only lists the verbs', (noun) => {
    const lines = readFileSync(join(COMMANDS, noun, 'index.ts'), 'utf8').split('\n');
    expect(lines.filter((line) => DECLARATION.test(line))).toEqual([]);
  });
});
