/**
 * The oldest Node.js loanctl runs on: package.json's `engines` says the same, and so does the
 * check in bin/loanctl.js, which has to parse on any Node (test/unit/node-support.test.ts holds
 * the three together). The sandbox keeps its data in node:sqlite, which older Nodes lack.
 */
export const OLDEST_NODE = { major: 22, minor: 13 } as const;

/** Why this Node cannot run `what`, in one line with what to do; undefined when it can. */
export function unsupportedNode(what: string, version = process.versions.node): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const { major: oldestMajor, minor: oldestMinor } = OLDEST_NODE;
  if (major > oldestMajor || (major === oldestMajor && minor >= oldestMinor)) return undefined;
  return `${what} needs Node.js ${oldestMajor}.${oldestMinor} or newer; this is v${version}. Install Node.js 24 (or ${oldestMajor}.${oldestMinor}+) and run it again.`;
}
