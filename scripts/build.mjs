// Bundles src/main.ts into dist/ with esbuild. Code splitting keeps the modules that only some
// commands need (the sandbox's Fastify, inquirer, the HTTP stack) out of the start-up path:
// each lazy `import()` in src becomes its own chunk that loads only when that command runs.

import { readFileSync, renameSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// Build into a fresh directory and swap it in at the end, so a test running the CLI while another
// build runs never finds dist/ half-written or missing, and no stale chunk survives a rebuild.
const dist = new URL('../dist', import.meta.url);
const staging = new URL(`../dist.tmp-${process.pid}`, import.meta.url);
rmSync(staging, { recursive: true, force: true });
await build({
  entryPoints: { loanctl: 'src/main.ts' },
  outdir: staging.pathname,
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
rmSync(dist, { recursive: true, force: true });
renameSync(staging, dist);
