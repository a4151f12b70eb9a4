/**
 * A document names only what exists: the files it links to and their sections, the paths of the
 * repository it mentions, and the `loanctl` commands and flags it shows (read off the real command
 * tree). Comments in the code cite documents of this repository, and sections that exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completionSpec } from '../../src/completion/spec.js';
import { createDeps } from '../../src/deps.js';
import { buildWholeProgram } from '../../src/program.js';
import { anchorsOf, checkDocument, type DocWorld } from '../helpers/doc-check.js';
import { fakeIo } from '../helpers/fake-io.js';

const ROOT = resolve(import.meta.dirname, '../..');
const world: DocWorld = {
  root: ROOT,
  spec: completionSpec(await buildWholeProgram(createDeps({ io: fakeIo(), env: {} }))),
};

/** README.md, CONTRIBUTING.md, bench/README.md and every Markdown file under docs/. */
function documents(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => join(entry.parentPath, entry.name));
  return [...['README.md', 'CONTRIBUTING.md', 'bench/README.md'].map((name) => join(ROOT, name)), ...docs].filter(
    (file) => existsSync(file),
  );
}

/** The source files whose comments may cite a document. */
function sources(): string[] {
  return ['src', 'test', 'bin', 'scripts', 'bench'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(ts|mjs|js)$/.test(entry.name))
      .map((entry) => join(entry.parentPath, entry.name)),
  );
}

const sample = (markdown: string) => checkDocument(world, join(ROOT, 'docs/sample.md'), markdown);

describe('the documents', () => {
  it.each(documents().map((file) => [file.slice(ROOT.length + 1), file]))(
    '%s names only what exists',
    (_name, file) => {
      // bench/README.md is about the benchmark's scripts and Node's flags: a lone `--flag` there is theirs.
      const loneFlags = !file.endsWith('bench/README.md');
      expect(checkDocument(world, file, readFileSync(file, 'utf8'), { loneFlags })).toEqual([]);
    },
  );

  it('README.md is at most 200 lines, and its test command is the one CI runs', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    const tests = readme.slice(readme.indexOf('## Tests'));
    const command = /```sh\n(.*)\n```/.exec(tests)?.[1];
    expect(command).toBe('npm test');
    expect(readFileSync(join(ROOT, '.ci/run'), 'utf8').split('\n')).toContain(command);
  });
});

describe('the check itself finds', () => {
  it('a link to a file that does not exist, and to a section that does not exist', () => {
    expect(sample('See [the guide](guide.md#no-such-section) and [this](nowhere.md).\n')).toEqual([
      'docs/sample.md:1: links to guide.md#no-such-section, a section that does not exist',
      'docs/sample.md:1: links to nowhere.md, which does not exist',
    ]);
    expect(sample('# Here\n\nSee [above](#here) and [below](#there).\n')).toEqual([
      'docs/sample.md:3: links to #there, a section that does not exist',
    ]);
  });

  it('a path of the repository that does not exist', () => {
    expect(sample('The table is in `src/contract/no-such-file.ts`.\n')).toEqual([
      'docs/sample.md:1: names src/contract/no-such-file.ts, which does not exist',
    ]);
    expect(sample('| a guarantee | test/unit/no-such.test.ts "its case" |\n')).toEqual([
      'docs/sample.md:1: names test/unit/no-such.test.ts, which does not exist',
    ]);
    expect(sample('```sh\nloanctl sandbox seed fixtures/missing.yaml\n```\n')).toEqual([
      'docs/sample.md:2: names fixtures/missing.yaml, which does not exist',
    ]);
  });

  it('a command or a flag loanctl does not have, in a code span or a code block', () => {
    expect(sample('Run `loanctl loan decline 3` or `loanctl user create --nickname Ada`.\n')).toEqual([
      'docs/sample.md:1: `loanctl loan` has no command decline',
      'docs/sample.md:1: `loanctl user create` has no flag --nickname',
    ]);
    expect(sample('```sh\nloanctl loan approve 3 --approved-amount 5 \\\n  --yes --sure\n```\n')).toEqual([
      'docs/sample.md:2: `loanctl loan approve` has no flag --sure',
    ]);
    expect(sample('| `loan list --colour red` | `loan add-business ID --registered\\|--unregistered` |\n')).toEqual([
      'docs/sample.md:1: `loanctl loan list` has no flag --colour',
      'docs/sample.md:1: `loanctl loan add-business` has no flag --unregistered',
    ]);
    expect(sample('Then `loan decline ID`, `profile add|rename`, or `--frobnicate`.\n')).toEqual([
      'docs/sample.md:1: `loan` has no command decline',
      'docs/sample.md:1: `profile` has no command rename',
      'docs/sample.md:1: names the flag --frobnicate, which no loanctl command has',
    ]);
  });

  it("nothing in what a document declares is not loanctl's (a typo it shows, a verb a recipe adds)", () => {
    const text =
      "<!-- not loanctl's: loan decline; --reason -->\n`loanctl loan decline 3 --reason x`, `loan decline`, `--reason`.\n";
    expect(sample(text)).toEqual([]);
    expect(sample(text.replace('--reason -->', '-->'))).toEqual([
      'docs/sample.md:2: names the flag --reason, which no loanctl command has',
    ]);
  });

  it('nothing in what exists: global flags anywhere, flag values, pipes, placeholders', () => {
    expect(
      sample(
        [
          '# Sample',
          '',
          'See [the guide](guide.md#exit-codes), [above](#sample), `src/contract/states.ts`, `dist/sandbox.d.ts`.',
          '`loanctl --profile prod loan list --all -o csv --fields id | head -1`, `loan show ID`, `--reapprove`.',
          '```sh',
          'loanctl sandbox faults add --path "/api/**" --status 200 --envelope error  # a comment --nope',
          'npx @redocly/cli lint openapi.json',
          '```',
          '',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('section anchors as GitHub makes them', () => {
    const anchors = anchorsOf(
      '# `loan schedule ID`: a schedule\n## Exit codes\n## Exit codes\n```\n# not a heading\n```\n',
    );
    expect([...anchors]).toEqual(['loan-schedule-id-a-schedule', 'exit-codes', 'exit-codes-1']);
  });
});

describe('comments in the code', () => {
  it('cite documents of this repository, never the notes outside it', () => {
    const outside = sources().flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /\b(conventions|design)\.md\b/.test(line) ? [`${file.slice(ROOT.length + 1)}:${index + 1}`] : [],
        ),
    );
    expect(outside).toEqual([]);
  });

  it('that cite a section of README.md or bench/README.md by its name (README, "Quick start") cite one it has', () => {
    const headings = (doc: string) =>
      new Set(
        readFileSync(join(ROOT, doc), 'utf8')
          .split('\n')
          .flatMap((line) => /^#{1,6}\s+(.*)$/.exec(line)?.[1] ?? []),
      );
    const readmes = { 'README.md': headings('README.md'), 'bench/README.md': headings('bench/README.md') };
    const citation = /(?<![\w/])(bench\/)?README(?:\.md)?,? "([^"]+)"/g;
    const broken = sources()
      .filter((file) => file !== import.meta.filename)
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(citation)].flatMap((match) => {
          const doc = match[1] ? 'bench/README.md' : 'README.md';
          const section = (match[2] ?? '').replace(/\s*\n\s*(?:\*|\/\/)?\s*/g, ' ');
          return readmes[doc].has(section) ? [] : [`${file.slice(ROOT.length + 1)}: ${doc} "${section}"`];
        }),
      );
    expect(broken).toEqual([]);
  });

  it('cite sections of docs/ and CONTRIBUTING.md that exist, by name (docs/guide.md, "Durations")', () => {
    const citation = /((?:docs\/[\w/-]+|CONTRIBUTING)\.md),? "([^"]+)"/g;
    const broken = sources()
      .filter((file) => file !== import.meta.filename)
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(citation)].flatMap((match) => {
          const [, doc = '', section = ''] = match;
          const path = join(ROOT, doc);
          const headings = existsSync(path)
            ? readFileSync(path, 'utf8')
                .split('\n')
                .flatMap((line) => /^#{1,6}\s+(.*)$/.exec(line)?.[1]?.replaceAll('`', '') ?? [])
            : [];
          return headings.includes(section) ? [] : [`${file.slice(ROOT.length + 1)}: ${doc}, "${section}"`];
        }),
      );
    expect(broken).toEqual([]);
  });

  it('cite sections that exist (`docs/guide.md#exit-codes`)', () => {
    const broken = sources().flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/((?:docs\/[\w/-]+|CONTRIBUTING|README)\.md)#([\w-]+)/g)].flatMap(
        (match) => {
          const [, doc = '', anchor = ''] = match;
          const path = join(ROOT, doc);
          return existsSync(path) && anchorsOf(readFileSync(path, 'utf8')).has(anchor)
            ? []
            : [`${file.slice(ROOT.length + 1)}: ${doc}#${anchor}`];
        },
      ),
    );
    expect(broken).toEqual([]);
  });
});
