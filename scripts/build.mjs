// Bundles src/entry.ts (and through it src/main.ts) into dist/ with esbuild. Code splitting keeps the modules that only some
// commands need (the sandbox's Fastify, inquirer, the HTTP stack, zod) out of the start-up path:
// each lazy `import()` in src becomes its own chunk that loads only when that command runs.
// Nothing else is rewritten: what each choice here buys is measured by `npm run bench` (bench/README.md).

import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { buildFacts } from './build-facts.mjs';

// src/entry.ts answers `--version` as one file that loads nothing else (see there), but the rest of
// the program takes src/version.ts too, so esbuild would put it in a chunk of its own, loaded by
// every start. The entry gets a copy of its own instead: one source, inlined into dist/loanctl.mjs.
const entryOwnsVersion = {
  name: 'entry-owns-version',
  setup(build) {
    build.onResolve({ filter: /^\.\/version\.js$/ }, ({ importer }) =>
      importer.endsWith('/src/entry.ts')
        ? { path: `${dirname(importer)}/version.ts`, namespace: 'entry-copy' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'entry-copy' }, ({ path }) => ({
      contents: readFileSync(path, 'utf8'),
      loader: 'ts',
      resolveDir: dirname(path),
    }));
  },
};

// Build into a fresh directory and swap it in at the end, so a test running the CLI while another
// build runs never finds dist/ half-written or missing, and no stale chunk survives a rebuild.
const dist = new URL('../dist', import.meta.url);
const staging = new URL(`../dist.tmp-${process.pid}`, import.meta.url);
rmSync(staging, { recursive: true, force: true });
await build({
  // sandbox: `loanctl/sandbox` (package.json `exports`), the sandbox for a lender's own test suite.
  entryPoints: { loanctl: 'src/entry.ts', sandbox: 'src/sandbox-entry.ts' },
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
  // .mjs: Node loads such a file as an ES module without looking for the package.json that says
  // so, at each of the files a command loads (docs/decisions/mjs-chunks.md).
  outExtension: { '.js': '.mjs' },
  define: { __LOANCTL_BUILD__: buildFacts({ binary: false }) },
  // Bundled CommonJS dependencies (fastify, cli-table3…) call require(); ESM output has none.
  banner: { js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);" },
  // A native module (a prebuilt .node per platform) cannot be bundled: it is loaded from
  // node_modules, and only by src/config/keyring.ts's lazy import.
  // jq-web loads its jq.wasm from beside its jq.js (src/output/jq.ts): it stays in node_modules.
  external: ['@napi-rs/keyring', 'jq-web'],
  plugins: [entryOwnsVersion],
  logLevel: 'warning',
});

// `loanctl --help` to a pipe or a file prints this (src/entry.ts): the root help, rendered now by the
// bundle just built, as commander renders it off a terminal (width 80). Commander and the command
// tree are most of the start-up time (without this file `--help` is ~1.5 × `node -e 0`, over the
// 1.3 × goal: bench/README.md), and this text depends on nothing else.
const entry = new URL('loanctl.mjs', `${staging.href}/`).href;
const rootHelp = execFileSync(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `const { main } = await import(${JSON.stringify(entry)}); process.exitCode = await main(['--help']);`,
  ],
  { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'inherit'] },
);
if (!rootHelp.startsWith('Usage: loanctl'))
  throw new Error(`rendering the root help printed: ${rootHelp.slice(0, 200)}`);
writeFileSync(new URL('root-help.txt', `${staging.href}/`), rootHelp);

// Its types: the file declares its whole public surface itself, so its declarations need no
// type-check of the program (isolated declarations, milliseconds).
const api = ts.transpileDeclaration(readFileSync('src/sandbox-api.ts', 'utf8'), {
  fileName: 'sandbox.ts',
  compilerOptions: { isolatedDeclarations: true },
  reportDiagnostics: true,
});
if (api.diagnostics?.length)
  throw new Error(`src/sandbox-api.ts: ${ts.formatDiagnostics(api.diagnostics, ts.createCompilerHost({}))}`);
writeFileSync(new URL('sandbox.d.ts', `${staging.href}/`), api.outputText);

rmSync(dist, { recursive: true, force: true });
renameSync(staging, dist);
