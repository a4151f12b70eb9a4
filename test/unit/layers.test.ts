/**
 * The layering rules of README's Development section, read off the source's own imports (static
 * and `import()`): a command never imports another command's file, `src/domain` stays below the
 * commands and prints nothing, and only the program (the command tree) reaches into the commands.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** `file`'s relative imports, as paths under src/ (e.g. `commands/loan/print.ts`). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g)].map((match) => match[1] ?? '');
  return specifiers.map((specifier) => relative(SRC, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

/** `from → to` for each import of a file under `dir` (src-relative) that `forbidden` picks. */
function violations(dir: string, forbidden: (from: string, to: string) => boolean): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(join(SRC, dir))) {
    const from = relative(SRC, file);
    for (const to of importsOf(file)) if (forbidden(from, to)) found.push(`${from} → ${to}`);
  }
  return found;
}

/** The noun folder of a path under src/commands (`loan` for `commands/loan/show.ts`), else undefined. */
const nounOf = (path: string) => /^commands\/([^/]+)\//.exec(path)?.[1];

describe('layers', () => {
  it("a command never imports another command's file (only its own noun's and commands/common)", () => {
    const crossing = violations('commands', (from, to) => {
      const target = nounOf(to);
      return target !== undefined && target !== 'common' && target !== nounOf(from);
    });
    expect(crossing).toEqual([]);
  });

  it('src/domain imports neither commands, nor output, prompts or bulk: it finds and reads, and prints nothing', () => {
    const upward = violations('domain', (_from, to) => /^(commands|output|prompts|bulk)\//.test(to));
    expect(upward).toEqual([]);
  });

  it('outside src/commands, only the program (the command tree) imports a command', () => {
    const outside = sourceFiles(SRC)
      .map((file) => relative(SRC, file))
      .filter((path) => !path.startsWith('commands/') && path !== 'program.ts');
    const reaching = outside.flatMap((from) =>
      importsOf(join(SRC, from))
        .filter((to) => to.startsWith('commands/'))
        .map((to) => `${from} → ${to}`),
    );
    expect(reaching).toEqual([]);
  });
});
