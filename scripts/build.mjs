// Bundles src/main.ts into dist/ with esbuild. Code splitting keeps the modules that only some
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

/**
 * undici's HTTP/2 client (lib/dispatcher/client-h2.js, loaded with every undici `Client`) runs
 * `require('node:http2')` at load time, only to read a few constants; `http2.connect` is the one
 * other use, and only for a server that negotiates HTTP/2 (`allowH2`). Loading node:http2 loads
 * TLS, all of node:crypto, readline and fs/promises too: ~20 ms of a network command that talks
 * HTTP/1.1. Here the module gets node:http2's constants (copied from this Node at build time: they
 * are nghttp2's fixed numbers and header names) and a `connect` that loads node:http2 when called.
 * The build fails if undici's line changes, rather than silently keep the eager load.
 */
const undiciLazyHttp2 = {
  name: 'undici-lazy-http2',
  setup(build) {
    build.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const eager = "http2 = require('node:http2')";
      if (source.split(eager).length !== 2) throw new Error(`${args.path}: expected one \`${eager}\``);
      const { constants } = process.getBuiltinModule('node:http2');
      const lazy = `http2 = { constants: ${JSON.stringify(constants)}, connect: (...args) => require('node:http2').connect(...args) }`;
      return { loader: 'js', contents: source.replace(eager, lazy) };
    });
  },
};

/**
 * undici calls `assert(condition)` on its hot paths and loads node:assert for it, which brings
 * node:assert's diff, colour and call-tracker modules (~1 ms of a network command). Its files get
 * instead a function that checks the condition itself and hands a failing call, with the same
 * arguments, to node:assert (loaded then), which throws as before; anything else is read from
 * node:assert. Other packages keep the real module.
 */
const undiciLazyAssert = {
  name: 'undici-lazy-assert',
  setup(build) {
    build.onResolve({ filter: /^(node:)?assert$/ }, (args) =>
      args.kind === 'require-call' && /[\\/]node_modules[\\/]undici[\\/]/.test(args.importer)
        ? { path: 'undici-assert', namespace: 'undici-lazy-assert' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'undici-lazy-assert' }, () => ({
      loader: 'js',
      contents: `let real;
const load = () => (real ??= process.getBuiltinModule('node:assert'));
module.exports = new Proxy(function assert() {}, {
  apply: (_target, _this, args) => { if (!args[0]) load()(...args); },
  get: (_target, name) => load()[name],
});`,
    }));
  },
};

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
  // Bundled CommonJS dependencies still call require(); give them one in ESM output (through
  // process.getBuiltinModule, not `import 'node:module'`, whose facade would cost a little too).
  banner: {
    js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);",
  },
  plugins: [lazyBuiltins, undiciLazyHttp2, undiciLazyAssert],
  logLevel: 'warning',
});

// `loanctl --help` to a pipe or a file prints this (src/main.ts): the root help, rendered now by the
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
