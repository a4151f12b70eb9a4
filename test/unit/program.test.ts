/** buildProgram(deps, argv): a run of one noun builds that noun only, and sees the same commands. */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { createDeps } from '../../src/deps.js';
import { buildProgram, nounOf } from '../../src/program.js';
import { fakeIo } from '../helpers/fake-io.js';

const deps = () => createDeps({ io: fakeIo(), env: {} });

function find(root: Command, path: readonly string[]): Command | undefined {
  let command: Command | undefined = root;
  for (const name of path) command = command?.commands.find((sub) => sub.name() === name);
  return command;
}

function commandPaths(command: Command, prefix: string[] = []): string[][] {
  return command.commands.flatMap((sub) => [[...prefix, sub.name()], ...commandPaths(sub, [...prefix, sub.name()])]);
}

describe('nounOf: the noun a run uses, read as commander reads argv', () => {
  const root = buildProgram(deps());
  it.each([
    [['user', 'exists', '--email', 'a@b.co'], 'user'],
    [['-o', 'json', 'user', 'exists'], 'user'],
    [['-ojson', '--raw', 'loan', 'list'], 'loan'],
    [['--output=json', '--no-color', '--timeout', '5', 'loan', 'show', '1'], 'loan'],
    [['--profile', 'user', 'loan', 'list'], 'loan'],
    [['--fields', 'id', '--base-url', 'http://x', '--dry-run', '--debug', '--no-input', 'api', 'GET', '/'], 'api'],
    [['sandbox', 'start'], 'sandbox'],
  ])('%j runs %s', (argv, noun) => {
    expect(nounOf(root, argv)).toBe(noun);
  });

  it.each([
    [[]],
    [['--help']],
    [['-h', 'user']],
    [['--version']],
    [['-v']],
    [['help', 'user']],
    [['completion', 'bash']],
    [['__complete', 'profiles']],
    [['lon']],
    [['--', 'user']],
    [['--unknown', 'user']],
    [['--color', 'user']],
    [['--profile']],
  ])('%j: the whole tree', (argv) => {
    expect(nounOf(root, argv)).toBeUndefined();
  });
});

describe('buildProgram with argv', () => {
  const full = buildProgram(deps());

  it('builds only the noun that runs', () => {
    expect(buildProgram(deps(), ['-o', 'json', 'user', 'exists']).commands.map((sub) => sub.name())).toEqual(['user']);
    expect(buildProgram(deps(), ['lon']).commands.length).toBe(full.commands.length);
  });

  it.each(commandPaths(full).map((path) => [path.join(' '), path] as const))(
    '%s: the same help as in the whole tree',
    (_name, path) => {
      if (!nounOf(full, path)) return; // completion: always the whole tree
      const alone = find(buildProgram(deps(), [...path, '--help']), path);
      expect(alone?.helpInformation()).toBe(find(full, path)?.helpInformation());
    },
  );
});
