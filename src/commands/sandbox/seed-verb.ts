/** `loanctl sandbox seed FILE`: its flags and help; the run is ./seed.ts. */
import type { Verb } from '../common/verb.js';
import { controlVerb } from './common.js';

export const sandboxSeed: Verb = (sandbox, deps) => {
  controlVerb(
    sandbox,
    'seed',
    'Create data from a fixture file of named steps (JSON or YAML; docs/sandbox.md, "Seed files")',
    'loanctl sandbox seed fixtures/small-book.yaml',
  )
    .argument('<file>', 'the fixture file')
    .action(async (file, options) => {
      const { runSandboxSeed } = await import('./seed.js');
      await runSandboxSeed(file, options, deps);
    });
};
