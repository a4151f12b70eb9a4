// Bundles src/main.ts into dist/ with esbuild. Code splitting keeps the modules that only some
// commands need (the sandbox's Fastify, inquirer, the HTTP stack) out of the start-up path:
// each lazy `import()` in src becomes its own chunk that loads only when that command runs.

import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { loanctl: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22.13',
  minify: true,
  sourcemap: 'linked',
  legalComments: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __LOANCTL_VERSION__: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies still call require(); give them one in ESM output.
  banner: {
    js: "import { createRequire as __loanctlRequire } from 'node:module'; const require = __loanctlRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
