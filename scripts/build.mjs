// Bundles src/entry.ts (and through it src/main.ts) into dist/ with esbuild. Code splitting keeps the modules that only some
// commands need (the sandbox's Fastify, inquirer, the HTTP stack) out of the start-up path:
// each lazy `import()` in src becomes its own chunk that loads only when that command runs.
// Start-up costs are measured by `npm run bench` (bench/README.md says what each choice here buys).

import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/**
 * `import … from 'node:fs'` in ESM makes Node build the module's ESM facade, which reads every
 * export — and reading `fs.promises`, `child_process`'s or `util`'s lazy getters loads a dozen
 * more internal modules (readline, streams, net, worker…): about 6 ms of a 30 ms start, for
 * commander's imports alone, though `--help` never spawns a process or reads a file.
 *
 * This plugin turns each static `import` of a builtin into a small CommonJS module whose
 * properties are getters that fetch the builtin with `process.getBuiltinModule` (no facade) on
 * first use. The module is made per importing file, so it lands in its importer's chunk instead of
 * becoming one more shared chunk to load. `require()` of a builtin (bundled CommonJS dependencies)
 * is left alone: it builds no facade. `node:process` is the global `process` itself.
 */
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    build.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
      if (args.kind !== 'import-statement' || !isBuiltin(args.path)) return undefined;
      const id = args.path.startsWith('node:') ? args.path : `node:${args.path}`;
      return { path: `${id}?from=${args.importer}`, namespace: 'lazy-builtin', pluginData: { id } };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => {
      const { id } = args.pluginData;
      if (id === 'node:process') return { loader: 'js', contents: 'module.exports = process;' };
      const names = Object.getOwnPropertyNames(process.getBuiltinModule(id)).filter((name) => name !== 'default');
      return {
        loader: 'js',
        contents: `let real;
const load = () => (real ??= process.getBuiltinModule(${JSON.stringify(id)}));
const lazy = {};
for (const name of ${JSON.stringify(names.join(','))}.split(',')) {
  Object.defineProperty(lazy, name, {
    enumerable: true,
    get: () => load()[name],
    set: (value) => { load()[name] = value; },
  });
}
module.exports = lazy;`,
      };
    });
  },
};

// Build into a fresh directory and swap it in at the end, so a test running the CLI while another
// build runs never finds dist/ half-written or missing, and no stale chunk survives a rebuild.
const dist = new URL('../dist', import.meta.url);
const staging = new URL(`../dist.tmp-${process.pid}`, import.meta.url);
rmSync(staging, { recursive: true, force: true });
await build({
  entryPoints: { loanctl: 'src/entry.ts' },
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
  // Bundled CommonJS dependencies still call require(); give them one in ESM output (through
  // process.getBuiltinModule, not `import 'node:module'`, whose facade would cost a little too).
  // Made on first use: every chunk gets this line, few call it, and createRequire costs ~70 µs,
  // ~1.7 ms over the two dozen chunks a network command loads.
  banner: {
    js: [
      'let __loanctlRequire;',
      "const __loanctlRealRequire = () => (__loanctlRequire ??= process.getBuiltinModule('node:module').createRequire(import.meta.url));",
      'const require = new Proxy(function require() {}, { apply: (_target, _this, args) => __loanctlRealRequire()(...args), get: (_target, key) => __loanctlRealRequire()[key] });',
    ].join(' '),
  },
  plugins: [lazyBuiltins],
  // A native module (a prebuilt .node per platform) cannot be bundled: it is loaded from
  // node_modules, and only by src/config/keyring.ts's lazy import.
  external: ['@napi-rs/keyring'],
  logLevel: 'warning',
});

// `loanctl --help` to a pipe or a file prints this (src/entry.ts): the root help, rendered now by the
// bundle just built, as commander renders it off a terminal (width 80). Commander and the command
// tree are most of the start-up time, and this text depends on nothing else.
const entry = new URL('loanctl.js', `${staging.href}/`).href;
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

rmSync(dist, { recursive: true, force: true });
renameSync(staging, dist);
