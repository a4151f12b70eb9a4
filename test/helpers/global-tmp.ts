import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest globalSetup: the whole run gets one temporary directory as TMPDIR, and it is removed at
 * the end. Every temp dir a test makes (mkdtemp under os.tmpdir()), and every one made by the
 * CLIs and sandboxes the tests start (they inherit TMPDIR), lives inside it, so a test that
 * forgets to clean up, or dies half-way, leaves nothing behind on the machine.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'loanctl-tests-'));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
