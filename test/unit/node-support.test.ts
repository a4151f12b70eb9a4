/**
 * The oldest Node loanctl runs on is one fact (src/node-support.ts) that package.json's engines,
 * the bin's check and `loanctl/sandbox` all say. On an older Node (this machine's own, where it
 * has one), both the bin and the package's sandbox entry refuse in one line naming the version,
 * instead of failing on a module that Node lacks.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OLDEST_NODE, unsupportedNode } from '../../src/node-support.js';
import { assertBuilt, ROOT } from '../helpers/cli.js';

const oldest = `${OLDEST_NODE.major}.${OLDEST_NODE.minor}`;

/** A Node older than the oldest supported, if this machine has one (its system Node often is). */
function olderNode(): string | undefined {
  for (const candidate of [process.env.LOANCTL_TEST_OLD_NODE, '/usr/bin/node', '/usr/local/bin/node']) {
    if (!candidate) continue;
    try {
      const version = execFileSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
      if (unsupportedNode('x', version)) return candidate;
    } catch {
      // not there, or not a Node
    }
  }
  return undefined;
}
const OLD_NODE = olderNode();
if (!OLD_NODE)
  console.warn(`node-support: no Node older than ${oldest} on this machine; the refusal runs are skipped.`);

describe('the oldest Node', () => {
  it("is package.json's engines", () => {
    const engines = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines.node;
    expect(engines).toBe(`>=${oldest}`);
  });

  it('is checked by version, not by what a module happens to lack', () => {
    expect(unsupportedNode('x', '24.0.0')).toBeUndefined();
    expect(unsupportedNode('x', `${OLDEST_NODE.major}.${OLDEST_NODE.minor}.0`)).toBeUndefined();
    expect(unsupportedNode('x', `${OLDEST_NODE.major}.${OLDEST_NODE.minor - 1}.9`)).toContain(
      `needs Node.js ${oldest}`,
    );
    expect(unsupportedNode('x', '20.20.2')).toContain('this is v20.20.2');
  });

  describe.skipIf(!OLD_NODE)('on an older Node', () => {
    it('the bin says which Node it needs (exit 2)', () => {
      assertBuilt();
      const run = spawnSync(OLD_NODE as string, [join(ROOT, 'bin/loanctl.js'), '--version'], { encoding: 'utf8' });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(`loanctl needs Node.js ${oldest} or newer`);
    });

    it("import 'loanctl/sandbox' says which Node it needs, not a module's missing property", () => {
      assertBuilt();
      const script = `import(${JSON.stringify(join(ROOT, 'dist/sandbox.mjs'))}).then(() => console.log('loaded'), (e) => console.log(e.message))`;
      const said = execFileSync(OLD_NODE as string, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim();
      expect(said).toMatch(
        new RegExp(`^loanctl/sandbox .* needs Node\\.js ${oldest.replace('.', '\\.')} or newer; this is v`),
      );
    });
  });
});
