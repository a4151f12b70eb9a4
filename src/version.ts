/**
 * What `loanctl --version` says, so a bug report carries it: the version, how this copy was
 * installed, the commit it was built from, and the Node it runs on. The build (scripts/build.mjs,
 * scripts/package.mjs) injects the facts it knows; under vitest (unbundled) there are none.
 */

interface BuildFacts {
  version: string;
  /** `git rev-parse --short HEAD` at build time; "unknown" outside a git checkout. */
  commit: string;
  /** True in the single executable (scripts/package.mjs), false in dist/. */
  binary: boolean;
}

declare const __LOANCTL_BUILD__: BuildFacts | undefined;

const BUILD: BuildFacts =
  typeof __LOANCTL_BUILD__ === 'object'
    ? __LOANCTL_BUILD__
    : { version: '0.0.0-dev', commit: 'unknown', binary: false };

export const VERSION: string = BUILD.version;
/** Running as the single executable: no node_modules, assets instead of files (node:sea). */
export const IS_BINARY: boolean = BUILD.binary;

type InstallKind = 'binary' | 'npm' | 'checkout';

/**
 * The single executable knows it is one. dist/ is the same in the npm package and in a checkout;
 * only a checkout has the sources beside it (the package's `files` leaves src/ out).
 */
function installKind(): InstallKind {
  if (IS_BINARY) return 'binary';
  // This module is bundled into dist/loanctl.mjs or a chunk under dist/chunks/: the root is above dist/.
  const here = import.meta.url;
  const dist = here.lastIndexOf('/dist/');
  if (dist < 0) return 'checkout';
  const sources = new URL('src/entry.ts', here.slice(0, dist + 1));
  // Through getBuiltinModule: `--version` stays a one-file start (src/entry.ts).
  return process.getBuiltinModule('node:fs').existsSync(sources) ? 'checkout' : 'npm';
}

/** `loanctl 0.1.0 (binary, commit abc1234, node 24.21.0)`: one line, the version its second word. */
export function versionLine(): string {
  return `loanctl ${VERSION} (${installKind()}, commit ${BUILD.commit}, node ${process.versions.node})`;
}
