/** main(argv) → exit code for the runs commander decides alone: help, version, missing or unknown words. */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { createDeps } from '../../src/deps.js';
import { main } from '../../src/main.js';
import { buildWholeProgram } from '../../src/program.js';
import { fakeIo } from '../helpers/fake-io.js';

async function run(argv: string[]) {
  const io = fakeIo();
  const code = await main(argv, createDeps({ io, env: { LOANCTL_CONFIG_DIR: '/nonexistent/loanctl-test' } }));
  return { code, stdout: io.stdout.text(), stderr: io.stderr.text() };
}

describe('main: exit codes of help, version and missing words', () => {
  it.each([[['--help']], [['loan', '--help']], [['help', 'loan']], [['--version']]])(
    '%j was asked for: exit 0',
    async (argv) => {
      expect((await run(argv)).code).toBe(0);
    },
  );

  it.each([[['help', 'user']], [['user', '--help']], [['help', 'sandbox', 'faults']]])(
    "%j shows the noun's own commands",
    async (argv) => {
      const result = await run(argv);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Commands:\n {2}(create|add) /m);
    },
  );

  it('`help` of a command that does not exist says so, with its suggestion: exit 2', async () => {
    const result = await run(['help', 'lon']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("loanctl: Unknown command 'lon'. Did you mean loan? See 'loanctl --help'.\n");
    expect(result.stdout).toBe('');
  });

  it.each([[[]], [['loan']], [['sandbox', 'org']]])('%j lacks a subcommand: help on stderr, exit 2', async (argv) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: loanctl');
    expect(result.stdout).toBe('');
  });

  it.each([
    [['lon'], "loanctl: Unknown command 'lon'. Did you mean loan? See 'loanctl --help'."],
    [
      ['loan', 'create', '--amout', '5'],
      "loanctl: Unknown option '--amout'. Did you mean --amount? See 'loanctl loan create --help'.",
    ],
    [
      ['sandbox', 'org', 'create'],
      "loanctl: Required option '--name <name>' not specified. See 'loanctl sandbox org create --help'.",
    ],
    [['loan', 'show'], "loanctl: Missing required argument 'id'. See 'loanctl loan show --help'."],
    // A destructive verb is never offered as a correction: a typo must not lead to a delete.
    [['loan', 'delet', '7'], "loanctl: Unknown command 'delet'. See 'loanctl loan --help'."],
    [['profile', 'remov', 'prod'], "loanctl: Unknown command 'remov'. See 'loanctl profile --help'."],
    [['cache', 'cleer'], "loanctl: Unknown command 'cleer'. See 'loanctl cache --help'."],
    // The command the typed word begins, before the closer one by edit distance (start).
    [['sandbox', 'stat'], "loanctl: Unknown command 'stat'. Did you mean status? See 'loanctl sandbox --help'."],
    [['sandbox', 'snap'], "loanctl: Unknown command 'snap'. Did you mean snapshot? See 'loanctl sandbox --help'."],
  ])('%j is one line on stderr with the closest suggestion and the help to read, exit 2', async (argv, line) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`${line}\n`);
    expect(result.stdout).toBe('');
  });
});

/** Every command path of the tree, e.g. ['loan', 'approve'], hidden ones left out. */
function commandPaths(command: Command, prefix: string[] = []): string[][] {
  return command.commands
    .filter((sub) => !(sub as unknown as { _hidden?: boolean })._hidden && sub.name() !== 'help')
    .flatMap((sub) => [[...prefix, sub.name()], ...commandPaths(sub, [...prefix, sub.name()])]);
}

const paths = commandPaths(await buildWholeProgram(createDeps({ io: fakeIo(), env: {} })));

describe('help', () => {
  it('covers the whole tree', () => {
    expect(paths.length).toBeGreaterThan(30);
  });

  it.each(paths.map((path) => [path.join(' '), path] as const))(
    '%s has a one-line description and an example',
    async (_name, path) => {
      const result = await run([...path, '--help']);
      expect(result.code).toBe(0);
      const description = result.stdout.split('\n')[2] ?? '';
      expect(description.trim().length, result.stdout).toBeGreaterThan(10);
      expect(result.stdout, result.stdout).toMatch(/^ {2}\$ loanctl /m);
    },
  );
});
