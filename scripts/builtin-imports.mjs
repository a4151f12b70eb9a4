// An esbuild plugin for scripts/build.mjs: a static `import { x } from 'node:fs'` in the bundle
// becomes a read of `process.getBuiltinModule('node:fs').x`.
//
// Why: for an ES module `import` of a builtin, Node builds the builtin's ESM facade, which reads
// every export once, lazy ones included, and loads what they need: `node:process` took 5.3 ms
// (its reports, its performance hooks), `node:fs` 2.7 (`fs.promises`, directory streams,
// watchers), `node:util` 2.5 (`parseArgs`, `diff`, worker threads), where
// `process.getBuiltinModule` took 0.02 ms for each (Node 24, bench/README.md, "Builtins without
// their facades"). Commander alone imports five builtins at start. `getBuiltinModule` hands over
// the module's plain object, and a lazy part loads only when it is read.
//
// Each importing file gets a small module of its own that reads only the names it imports, found
// in its source text. An import this cannot read whole (`import * as`, a re-export) is left to
// Node as it was: slower, never wrong.

import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';

const NAMESPACE = 'builtin-import';

/** `default` and the names one file imports from `specifier`, or undefined when it cannot say. */
export function importedNames(source, specifier) {
  const quoted = specifier.replace(/[/.]/g, '\\$&');
  const statement = new RegExp(`(?:^|[;}\\s])(import|export)\\b([^;'"]*?)\\bfrom\\s*(['"])${quoted}\\3`, 'g');
  const names = new Set();
  for (const [, keyword, clause] of source.matchAll(statement)) {
    if (keyword === 'export' || clause.includes('*')) return undefined;
    if (/^\s*type\s/.test(clause)) continue; // `import type …`: gone from the bundle
    if (
      clause
        .replace(/\{[^}]*\}/, '')
        .replace(/,/g, '')
        .trim() !== ''
    )
      names.add('default');
    for (const item of /\{([^}]*)\}/.exec(clause)?.[1].split(',') ?? []) {
      const [name] = item.trim().split(/\s+as\s+/);
      if (name && !name.startsWith('type ')) names.add(name.trim());
    }
  }
  return names.size > 0 ? [...names].sort() : undefined;
}

/** The module one file imports `node:<name>` through: the module's object and the names it reads. */
export function moduleText(builtin, names) {
  const lines = [`const builtin = process.getBuiltinModule(${JSON.stringify(builtin)});`];
  for (const name of names) {
    lines.push(name === 'default' ? 'export default builtin;' : `export const ${name} = builtin.${name};`);
  }
  return lines.join('\n');
}

export const builtinImports = {
  name: 'builtin-imports',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, ({ path, kind, importer }) => {
      if (kind !== 'import-statement' || !isBuiltin(path) || !importer) return undefined;
      const names = importedNames(readFileSync(importer, 'utf8'), path);
      if (!names) return undefined;
      return { path: `node:${path.replace(/^node:/, '')}?${names.join(',')}`, namespace: NAMESPACE };
    });
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, ({ path }) => {
      const [builtin, names] = path.split('?');
      return { contents: moduleText(builtin, names.split(',')), loader: 'js' };
    });
  },
};
