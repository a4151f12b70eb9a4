/**
 * The temporary data dirs of `startSandbox()` (its database and the demo's credentials), removed
 * on every way out of the process that still runs JavaScript: `stop()`, a normal exit, an
 * uncaught exception or `process.exit()` (node's 'exit' event), and SIGINT, SIGTERM or SIGHUP.
 * A signal handler is only added while such a dir exists, and then only takes the signal's
 * default course (the process ends by that signal) when nothing else listens for it: a test
 * runner's own handler keeps its say, and the dirs go at its 'exit'.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dirs = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** A new `loanctl-sandbox-*` dir under the OS's temporary dir, removed at exit unless removed before. */
export function makeTemporaryDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loanctl-sandbox-'));
  if (dirs.size === 0) listen();
  dirs.add(dir);
  return dir;
}

export function removeTemporaryDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  if (dirs.delete(dir) && dirs.size === 0) unlisten();
}

function removeAll(): void {
  for (const dir of [...dirs]) removeTemporaryDir(dir);
}

function onSignal(signal: NodeJS.Signals): void {
  // Counted before anything else runs (ours is first in line): a `once` handler that ran before
  // ours would already be gone from the count, and the process ended under its owner's feet.
  const othersListen = process.listenerCount(signal) > 1;
  removeAll();
  // Ours was the only handler: do what node does without one, end the process by that signal.
  if (!othersListen) process.kill(process.pid, signal);
}

/** One handler per signal, bound to its name: `process.emit('SIGINT')` passes none. */
const HANDLERS = Object.fromEntries(SIGNALS.map((signal) => [signal, () => onSignal(signal)])) as Record<
  (typeof SIGNALS)[number],
  () => void
>;

function listen(): void {
  process.on('exit', removeAll);
  for (const signal of SIGNALS) process.prependListener(signal, HANDLERS[signal]);
}

function unlisten(): void {
  process.off('exit', removeAll);
  for (const signal of SIGNALS) process.off(signal, HANDLERS[signal]);
}
