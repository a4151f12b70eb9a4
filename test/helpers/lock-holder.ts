/**
 * A second process that takes an SQLite file's write lock (BEGIN IMMEDIATE) and keeps it until
 * released: how the tests show what the sandbox does while another process holds a lock.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

const LOCK_HOLDER = `
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1]);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
process.stdin.on('data', () => { db.exec('COMMIT'); process.stdout.write('released\\n'); });
`;

/** Resolves once the child holds the write lock of the database at `path`. */
export async function holdWriteLock(path: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', LOCK_HOLDER, path], { stdio: ['pipe', 'pipe', 'inherit'] });
  await once(child.stdout as NodeJS.ReadableStream, 'data');
  return child;
}

/** Resolves once the child has let the lock go (it keeps running until killed). */
export async function releaseWriteLock(child: ChildProcess): Promise<void> {
  child.stdin?.write('release\n');
  await once(child.stdout as NodeJS.ReadableStream, 'data');
}
