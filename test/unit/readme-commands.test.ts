/**
 * README's command reference is generated from the commander tree (src/reference/commands-markdown.ts),
 * whose API flags come from the contract's field table: it must say what `--help` says.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completionSpec } from '../../src/completion/spec.js';
import { BODY_FIELDS, flagName } from '../../src/contract/fields.js';
import { createDeps } from '../../src/deps.js';
import { buildProgram } from '../../src/program.js';
import { commandsMarkdown, withReference } from '../../src/reference/commands-markdown.js';
import { fakeIo } from '../helpers/fake-io.js';

const README = resolve(import.meta.dirname, '../../README.md');
const reference = () => commandsMarkdown(completionSpec(buildProgram(createDeps({ io: fakeIo(), env: {} }))));

describe("README's command reference", () => {
  it('is the one generated from the commands (run `npm run docs` when this fails)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(withReference(readme, reference())).toBe(readme);
  });

  // They were left out: a group with verbs was taken for one that only holds them.
  it('lists a group that also runs by itself (sandbox snapshot NAME, sandbox clock) and not one that only holds verbs', () => {
    const text = reference();
    expect(text).toContain('#### `loanctl sandbox snapshot <name>`');
    expect(text).toContain('#### `loanctl sandbox clock`\n');
    expect(text).not.toContain('#### `loanctl loan`\n');
  });

  it('lists every body field of every operation as a flag with its help', () => {
    const text = reference();
    for (const fields of Object.values(BODY_FIELDS)) {
      for (const field of fields) {
        if ('noFlag' in field) continue;
        expect(text, field.name).toContain(`--${flagName(field)}`);
        expect(text, field.name).toContain(field.help.replaceAll('|', '\\|'));
      }
    }
    expect(text).toContain('#### `loanctl loan add-bank <id>`');
  });
});
