/**
 * The command reference, docs/reference/, is generated from the commander tree
 * (src/reference/commands-markdown.ts), whose API flags come from the contract's field table: it must
 * say what `--help` says, one file per top-level command and an index, and nothing else there.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completionSpec } from '../../src/completion/spec.js';
import { BODY_FIELDS, flagName } from '../../src/contract/fields.js';
import { createDeps } from '../../src/deps.js';
import { buildWholeProgram } from '../../src/program.js';
import { helpExamples, REFERENCE_DIR, referenceFiles } from '../../src/reference/commands-markdown.js';
import { fakeIo } from '../helpers/fake-io.js';

const DIR = resolve(import.meta.dirname, '../..', REFERENCE_DIR);
const program = await buildWholeProgram(createDeps({ io: fakeIo(), env: {} }));
const reference = () => referenceFiles(completionSpec(program), helpExamples(program));

describe('the command reference in docs/reference/', () => {
  it('is the one generated from the commands, file for file (run `npm run docs` when this fails)', () => {
    const files = reference();
    expect(readdirSync(DIR).sort()).toEqual([...files.keys()].sort());
    for (const [name, text] of files) expect(readFileSync(resolve(DIR, name), 'utf8'), name).toBe(text);
  });

  it('has a file for each noun, linked from the index', () => {
    const files = reference();
    for (const noun of ['user', 'loan', 'sandbox', 'profile', 'cache', 'api', 'demo', 'completion']) {
      expect(files.has(`${noun}.md`), noun).toBe(true);
      expect(files.get('index.md')).toContain(`](${noun}.md)`);
    }
  });

  // They were left out: a group with verbs was taken for one that only holds them.
  it('lists a group that also runs by itself (sandbox snapshot NAME, sandbox clock) and not one that only holds verbs', () => {
    const sandbox = reference().get('sandbox.md') ?? '';
    expect(sandbox).toContain('## `loanctl sandbox snapshot <name>`');
    expect(sandbox).toContain('## `loanctl sandbox clock`\n');
    expect(reference().get('loan.md')).not.toContain('## `loanctl loan`\n');
    expect([...reference().values()].join('\n')).not.toMatch(/## `loanctl [a-z ]*help/);
  });

  it("shows each command's examples as its --help does", () => {
    const loan = reference().get('loan.md') ?? '';
    const approve = loan.slice(
      loan.indexOf('## `loanctl loan approve'),
      loan.indexOf('\n## ', loan.indexOf('## `loanctl loan approve') + 1),
    );
    expect(approve).toMatch(/```sh\nloanctl loan approve \d+ /);
  });

  it('lists every body field of every operation as a flag with its help', () => {
    const text = [...reference().values()].join('\n');
    for (const fields of Object.values(BODY_FIELDS)) {
      for (const field of fields) {
        if ('noFlag' in field) continue;
        expect(text, field.name).toContain(`--${flagName(field)}`);
        expect(text, field.name).toContain(field.help.replaceAll('|', '\\|'));
      }
    }
    expect(reference().get('loan.md')).toContain('## `loanctl loan add-bank <id>`');
  });
});
