// Imports TypeScript sources from a script: Node cannot import them as they are, so esbuild bundles
// them on the fly (npm packages stay external) into node_modules/.cache, inside the project so
// that the bundle's imports of npm packages resolve. Used by gen-docs.mjs and gen-openapi-examples.mjs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

/** The module esbuild makes of `source` (an `entryPoints` or `stdin` option), cached as `name`. */
export async function importTs(source, name) {
  const bundle = await build({
    ...source,
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    packages: 'external',
    logLevel: 'error',
  });
  const cache = new URL('../node_modules/.cache/', import.meta.url);
  mkdirSync(cache, { recursive: true });
  const module = new URL(name, cache);
  writeFileSync(module, bundle.outputFiles[0].text);
  return import(module.href);
}
