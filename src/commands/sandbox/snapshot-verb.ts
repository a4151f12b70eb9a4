/**
 * `loanctl sandbox snapshot NAME`: its flags and help, and its own verb `snapshot list`
 * (./snapshot-list-verb.ts); the run is ./snapshot.ts.
 */
import type { Verb } from '../common/verb.js';
import { controlVerb } from './common.js';
import { sandboxSnapshotList } from './snapshot-list-verb.js';

export const sandboxSnapshot: Verb = (sandbox, deps) => {
  const snapshot = controlVerb(
    sandbox,
    'snapshot',
    'Save a consistent copy of the data under NAME (while serving, too)',
    'loanctl sandbox snapshot before-test',
    'loanctl sandbox snapshot list',
  )
    .argument('<name>', 'letters, digits, ".", "_" or "-"')
    .option('--force', 'replace a snapshot of the same name')
    .action(async (name, options) => {
      const { runSandboxSnapshot } = await import('./snapshot.js');
      await runSandboxSnapshot(name, options, deps);
    });
  sandboxSnapshotList(snapshot, deps);
};
