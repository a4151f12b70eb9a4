// The oldest Node the package supports, for the oldest-Node test tier (test/e2e/oldest-node.test.ts,
// `npm run test:oldest-node`): the version is package.json's `engines.node` (">=22.13" is Node
// 22.13.0), from the npm registry's `node` package (as the checkout's own Node 24 comes), in
// node_modules/.cache/oldest-node/VERSION, where `npm ci` starts it afresh.
//
// `npm run oldest-node` installs it and prints the binary's path; .ci/run does so before the tier.
// The test only looks for it: it never downloads, so `npm test` needs no network.
//
// Not a devDependency alias (`"node-22-13": "npm:node@22.13.0"`): that package's bin is also named
// `node`, and npm gives node_modules/.bin/node to whichever of the two it links first. A clean
// `npm ci` links the Node 24 first, but an `npm install` that adds the alias to an existing
// node_modules (every checkout that pulls it) links the 22.13, and every `npx` and `npm run` would
// then run on it.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `engines.node` of package.json as a whole version: ">=22.13" → "22.13.0". */
export function oldestNodeVersion() {
  const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const match = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(engines?.node ?? '');
  if (!match) throw new Error(`package.json's engines.node is not ">=MAJOR.MINOR": ${engines?.node}`);
  return `${match[1]}.${match[2]}.${match[3] ?? 0}`;
}

const dirOf = (version) => join(ROOT, 'node_modules', '.cache', 'oldest-node', version);
const binaryIn = (root) => join(root, 'node_modules', 'node', 'bin', 'node');

/** Where the oldest supported Node's binary is once installed. */
export function oldestNodePath() {
  return binaryIn(dirOf(oldestNodeVersion()));
}

/** Installs the oldest supported Node, when it is not there yet; returns its binary's path. */
export function installOldestNode() {
  const version = oldestNodeVersion();
  const dir = dirOf(version);
  if (existsSync(binaryIn(dir))) return binaryIn(dir);
  // Installed beside it and renamed when whole: an install cut short is never taken for one.
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  // `allowScripts`: npm 11 runs the package's install script (it fetches the binary) only when allowed.
  const manifest = { private: true, dependencies: { node: version }, allowScripts: { node: true } };
  writeFileSync(join(staging, 'package.json'), JSON.stringify(manifest));
  // The npm running this script (`npm run` says which), else the one on PATH.
  const npmScript = process.env.npm_execpath;
  const [command, ...args] = npmScript ? [process.execPath, npmScript] : ['npm'];
  execFileSync(command, [...args, 'install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: staging,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const installed = execFileSync(binaryIn(staging), ['--version'], { encoding: 'utf8' }).trim();
  if (installed !== `v${version}`) throw new Error(`npm installed Node ${installed} for node@${version}`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return binaryIn(dir);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(installOldestNode());
