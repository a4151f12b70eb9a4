/**
 * Building the command tree loads no verb's run (docs/architecture.md#where-new-code-goes, "A verb in one place"):
 * `--help` of a verb builds the whole tree, every noun's verbs with their flags, and must load
 * only the nouns' index.ts, the verbs' `-verb.ts` files and what they share, never the file
 * that does a verb's work (and the HTTP client, Fastify or node:sqlite behind it).
 */
import { describe, expect, it } from 'vitest';
import { loadedBy } from '../helpers/module-probe.js';

/** A file of src/commands that only declares commands: a noun's list, a verb's flags (`-verb.ts`, a part's `flags.ts`), what they share. */
const DECLARES =
  /^src\/commands\/[^/]+\/(index|common|[a-z-]+-verb)\.ts$|^src\/commands\/[^/]+\/[^/]+\/flags\.ts$|^src\/commands\/common\//;

describe('the command tree', () => {
  it.each([
    [['sandbox', 'faults', 'add', '--help']],
    [['profile', 'add', '--help']],
    [['cache', 'clear', '--help']],
    [['api', '--help']],
  ])('%j builds every verb and loads no run', async (args) => {
    const { exitCode, stdout, loaded } = await loadedBy(args, { PATH: process.env.PATH ?? '' });
    expect(exitCode).toBe(0);
    expect(stdout).toContain('Examples:');
    const commandFiles = [...loaded.sources].filter((source) => source.startsWith('src/commands/'));
    expect(commandFiles).toContain('src/commands/sandbox/faults-add-verb.ts');
    expect(commandFiles.filter((source) => !DECLARES.test(source))).toEqual([]);
  });
});
