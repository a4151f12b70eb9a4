// What `loanctl --version` says of a build (src/version.ts reads it as __LOANCTL_BUILD__):
// shared by scripts/build.mjs (dist/, for the npm package and a checkout) and scripts/package.mjs
// (the single executable).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The esbuild `define` value: `{ version, commit, binary }` as JSON. */
export function buildFacts({ binary }) {
  return JSON.stringify({ version: pkg.version, commit: gitCommit(), binary });
}

/** The commit the build is made from, or "unknown" outside a git checkout (a rebuild of the npm package). */
function gitCommit() {
  try {
    const options = { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] };
    return execFileSync('git', ['rev-parse', '--short=7', 'HEAD'], options).trim();
  } catch {
    return 'unknown';
  }
}
