// `npm run package`: the single executable, one file that carries its own Node (Node 24's single
// executable applications: https://nodejs.org/api/single-executable-applications.html).
// `npm run build` first (the npm script does it): the root help comes from dist/.
//
// 1. esbuild bundles src/binary.ts into one CommonJS file (the SEA's main must be one script that
//    loads nothing from disk): every lazy import() of dist/'s chunks is inlined.
// 2. The pinned Node (the `node` devDependency, which runs this script through npm) turns it into
//    a blob with V8's code cache (docs/decisions/sea-code-cache.md says why), and the assets: the
//    root help, and the keyring's native addon (src/config/keyring-addon.ts writes it to a private
//    cache dir on first use).
//    No start-up snapshot: it needs an entry written for V8's snapshot builder, and the binary's
//    start-up goal (docs/performance.md, measured by `npm run bench -- --only binary`) holds
//    without one.
// 3. postject injects the blob into a copy of that Node, stripped of its debug symbols.
// 4. The build runs it once (`--version`), then prints and writes its size and sha256.
//
// Linux only, the platform it is built and tested on here: macOS needs its own Node binary and a
// code signature, Windows its own Node binary (docs/guide.md#installing-in-detail).

import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { inject } from 'postject';
import { buildFacts } from './build-facts.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const OUT = join(ROOT, 'build');
const WORK = join(OUT, 'sea');
// The fuse Node looks for to know it carries a blob (the same for every Node with SEA).
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const NAME = `loanctl-${process.platform}-${process.arch}`;

function fail(message) {
  process.stderr.write(`package: ${message}\n`);
  process.exit(1);
}

if (process.platform !== 'linux') {
  fail(`builds the linux binary only; this is ${process.platform} (docs/guide.md, "The single executable", says why).`);
}
if (Number(process.versions.node.split('.')[0]) < 24) {
  fail(`needs the pinned Node 24 to embed; this is ${process.version}. Run it as \`npm run package\`.`);
}

const require = createRequire(import.meta.url);
const keyringAddon = require.resolve(
  `@napi-rs/keyring-linux-${process.arch}-gnu/keyring.linux-${process.arch}-gnu.node`,
);

rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });

await build({
  entryPoints: ['src/binary.ts'],
  outfile: join(WORK, 'loanctl.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node24',
  minify: true,
  legalComments: 'none',
  define: {
    __LOANCTL_BUILD__: buildFacts({ binary: true }),
    // Nothing in the binary is a file: the code that reads beside itself asks IS_BINARY first.
    'import.meta.url': JSON.stringify('file:///loanctl-binary/loanctl.cjs'),
  },
  // Loaded from the asset instead (src/config/keyring.ts).
  // jq-web too: its jq.js and jq.wasm are assets, loaded from a private copy (src/output/jq-asset.ts).
  external: ['@napi-rs/keyring', 'jq-web'],
  logLevel: 'warning',
});

const seaConfig = {
  main: join(WORK, 'loanctl.cjs'),
  output: join(WORK, 'loanctl.blob'),
  disableExperimentalSEAWarning: true,
  useCodeCache: true,
  useSnapshot: false,
  assets: {
    'root-help.txt': join(ROOT, 'dist', 'root-help.txt'),
    'keyring.node': keyringAddon,
    'jq.js': join(ROOT, 'node_modules', 'jq-web', 'jq.js'),
    'jq.wasm': join(ROOT, 'node_modules', 'jq-web', 'jq.wasm'),
  },
};
writeFileSync(join(WORK, 'sea-config.json'), JSON.stringify(seaConfig, null, 2));
execFileSync(process.execPath, ['--experimental-sea-config', join(WORK, 'sea-config.json')], {
  stdio: ['ignore', 'ignore', 'inherit'],
});

const binary = join(OUT, NAME);
rmSync(binary, { force: true });
copyFileSync(process.execPath, binary);
// Debug symbols are a sixth of Node's size and nothing a user runs needs. Skipped (and said) where
// binutils is missing.
if (spawnSync('strip', [binary], { stdio: 'ignore' }).status !== 0) {
  process.stderr.write('package: `strip` (binutils) failed or is missing: the binary keeps its debug symbols.\n');
}
await withoutSectionNameWarnings(() =>
  inject(binary, 'NODE_SEA_BLOB', readFileSync(seaConfig.output), { sentinelFuse: SEA_FUSE }),
);

const said = execFileSync(binary, ['--version'], { encoding: 'utf8', env: { PATH: '/nonexistent' } }).trim();
if (!said.startsWith('loanctl ') || !said.includes('(binary,')) fail(`the binary built but says: ${said}`);

const bytes = readFileSync(binary);
const sha256 = createHash('sha256').update(bytes).digest('hex');
writeFileSync(`${binary}.sha256`, `${sha256}  ${basename(binary)}\n`);
const megabytes = (statSync(binary).size / 1024 / 1024).toFixed(1);
process.stdout.write(`${binary}\n  ${said}\n  size:   ${megabytes} MiB\n  sha256: ${sha256}\n`);

/**
 * postject's ELF library warns once per note section of the stripped Node whose name it cannot
 * find ("Can't find string offset for section name '.note.100'"): harmless (the binary is checked
 * right after), but a dozen warning lines read as a failed build. Those lines alone are dropped;
 * anything else it says still shows.
 */
async function withoutSectionNameWarnings(run) {
  const warn = console.warn;
  console.warn = (...args) => {
    if (!/Can't find string offset for section name/.test(args.join(' '))) warn(...args);
  };
  try {
    return await run();
  } finally {
    console.warn = warn;
  }
}
