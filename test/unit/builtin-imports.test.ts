/**
 * scripts/builtin-imports.mjs reads, from a file's source text, the names it imports from a Node
 * builtin, so that the bundle takes exactly those from `process.getBuiltinModule` (no ESM facade).
 * A name it missed would fail the build ("No matching export"); one it cannot read leaves the
 * import to Node. What that saves at start-up is measured by `npm run bench`.
 */
import { describe, expect, it } from 'vitest';

// A build script in plain JavaScript, imported by a computed path so that TypeScript asks for no declarations.
type ImportedNames = (source: string, specifier: string) => string[] | undefined;
const { importedNames, moduleText } = (await import(`${'../../scripts/builtin-imports.mjs'}`)) as {
  importedNames: ImportedNames;
  moduleText: (builtin: string, names: string[]) => string;
};

/** The module the plugin writes for one file's imports of `builtin`, evaluated. */
const importOf = (builtin: string, names: string[]) =>
  import(`data:text/javascript,${encodeURIComponent(moduleText(builtin, names))}`);

describe('the names a file imports from a builtin', () => {
  it('reads named imports, aliases, a default and imports spread over several statements and lines', () => {
    const source = [
      "import { readFileSync, writeFileSync as write } from 'node:fs';",
      "import fs, {\n  existsSync,\n  type Stats,\n} from 'node:fs';",
      "import { join } from 'node:path';",
    ].join('\n');
    expect(importedNames(source, 'node:fs')).toEqual(['default', 'existsSync', 'readFileSync', 'writeFileSync']);
    expect(importedNames(source, 'node:path')).toEqual(['join']);
  });

  it('reads minified code and a specifier without the node: prefix', () => {
    expect(importedNames('var a=1;import{EventEmitter as b}from"events";import c from"events"', 'events')).toEqual([
      'EventEmitter',
      'default',
    ]);
  });

  it('skips type-only imports, which leave the bundle', () => {
    const source = "import type { Readable } from 'node:stream';\nimport { pipeline } from 'node:stream';";
    expect(importedNames(source, 'node:stream')).toEqual(['pipeline']);
  });

  it('leaves to Node what it cannot read whole: a namespace import, a re-export, nothing found', () => {
    expect(importedNames("import * as fs from 'node:fs';", 'node:fs')).toBeUndefined();
    expect(importedNames("export { readFileSync } from 'node:fs';", 'node:fs')).toBeUndefined();
    expect(importedNames("const fs = require('node:fs');", 'node:fs')).toBeUndefined();
  });

  it('does not take one builtin for another whose name it begins', () => {
    expect(importedNames("import { readFile } from 'node:fs/promises';", 'node:fs')).toBeUndefined();
  });
});

describe('the module a file imports a builtin through', () => {
  it('hands over the names it reads, and the default as the module itself', async () => {
    const fs = process.getBuiltinModule('node:fs');
    const module = await importOf('node:fs', ['default', 'readFileSync']);
    expect(module.default).toBe(fs);
    expect(module.readFileSync).toBe(fs.readFileSync);
  });
});
