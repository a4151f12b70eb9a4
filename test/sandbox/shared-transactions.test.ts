/**
 * The server's requests share transactions (db.ts): the writes queued in one turn of the event
 * loop run in one transaction, each in its own savepoint (`write`); each request's reads run in a
 * read transaction of their own (`read`). What a client must still be able to count on: a write is
 * acknowledged only once it is in the database, one write's failure takes nothing of the others
 * with it, a lock held by another process fails them all, leaving nothing half done, and a read
 * made after a write, by this connection or another, sees it.
 */
import type { ChildProcess } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { dbPathFor, SandboxDb } from '../../src/sandbox/db.js';
import { holdWriteLock, releaseWriteLock } from '../helpers/lock-holder.js';
import { tempDir } from '../helpers/sandbox.js';

let path: string;
let db: SandboxDb;
let holder: ChildProcess | undefined;

beforeEach(() => {
  path = dbPathFor(tempDir());
  db = SandboxDb.open(path, { failFastOnLock: true });
  db.sqlite.exec('CREATE TABLE notes (text TEXT NOT NULL)');
});

afterEach(() => {
  holder?.kill();
  holder = undefined;
  db.close();
});

const note = (text: string) => () => {
  db.sqlite.prepare('INSERT INTO notes (text) VALUES (?)').run(text);
  return text;
};

/** How many notes this connection's reads see. */
function noteCount(): number {
  return db.read(() => Number(db.sqlite.prepare('SELECT count(*) AS n FROM notes').get()?.n));
}

/** The notes as another connection sees them: what is committed. */
function committedNotes(): string[] {
  const other = new DatabaseSync(path);
  try {
    return other
      .prepare('SELECT text FROM notes ORDER BY rowid')
      .all()
      .map((row) => String(row.text));
  } finally {
    other.close();
  }
}

it('settles each write only once it is committed, visible to another connection', async () => {
  const written = db.write(note('first'));
  expect(committedNotes()).toEqual([]);
  expect(await written).toBe('first');
  expect(committedNotes()).toEqual(['first']);
});

it('rolls back only the write that failed; the others queued with it are committed', async () => {
  const results = await Promise.allSettled([
    db.write(note('kept before')),
    db.write(() => {
      note('undone')();
      throw new Error('this write fails after writing');
    }),
    db.write(note('kept after')),
  ]);
  expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect((results[1] as PromiseRejectedResult).reason.message).toBe('this write fails after writing');
  expect(committedNotes()).toEqual(['kept before', 'kept after']);
});

it('fails every write queued together with SQLITE_BUSY while another process holds the lock, writing none', async () => {
  holder = await holdWriteLock(path);
  const results = await Promise.allSettled([db.write(note('one')), db.write(note('two'))]);
  for (const result of results) {
    expect(result.status).toBe('rejected');
    expect(((result as PromiseRejectedResult).reason as { errcode: number }).errcode & 0xff).toBe(5);
  }
  await releaseWriteLock(holder);
  expect(committedNotes()).toEqual([]);
  // The next turn's writes get the lock again.
  expect(await db.write(note('after the lock'))).toBe('after the lock');
  expect(committedNotes()).toEqual(['after the lock']);
});

it('lets a write start between two reads, and the read after it sees it', () => {
  expect(noteCount()).toBe(0);
  db.transaction(note('written between two reads'));
  expect(noteCount()).toBe(1);
  expect(committedNotes()).toEqual(['written between two reads']);
});

it('shows a read what another connection committed before it, in the same turn of the event loop', () => {
  expect(noteCount()).toBe(0);
  const other = new DatabaseSync(path);
  other.prepare('INSERT INTO notes (text) VALUES (?)').run('from elsewhere');
  other.close();
  expect(noteCount()).toBe(1);
});

it('keeps one snapshot for the whole of one read, whatever another connection commits meanwhile', () => {
  const other = new DatabaseSync(path);
  try {
    const counts = db.read(() => {
      const before = noteCount();
      other.prepare('INSERT INTO notes (text) VALUES (?)').run('committed during the read');
      return [before, noteCount()];
    });
    expect(counts).toEqual([0, 0]);
    expect(noteCount()).toBe(1);
  } finally {
    other.close();
  }
});
