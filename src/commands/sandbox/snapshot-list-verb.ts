/** `loanctl sandbox snapshot list`: its flags and help; the run is ./snapshot-list.ts. */
import type { Command } from 'commander';
import type { Verb } from '../common/verb.js';
import { controlVerb } from './common.js';

export const sandboxSnapshotList: Verb = (snapshot, deps) => {
  controlVerb(
    snapshot,
    'list',
    'List the snapshots of the data dir',
    'loanctl sandbox snapshot list',
    'loanctl sandbox snapshot list -o json',
  ).action(async (_options, command: Command) => {
    // `--data-dir` after `list` may be parsed as `snapshot`'s option: optsWithGlobals() reads both.
    const { runSandboxSnapshotList } = await import('./snapshot-list.js');
    await runSandboxSnapshotList(command.optsWithGlobals(), deps);
  });
};
