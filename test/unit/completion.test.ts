/**
 * The completion model read from the real command tree, the checked-in scripts (stale → fail with
 * what changed), and `__complete profiles`. The scripts themselves run in real shells in
 * test/e2e/completion.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { thisLoanctl } from '../../src/commands/completion/run.js';
import { COMPLETION_FILES, completionScript, SHELLS } from '../../src/completion/index.js';
import { allCommands, type CommandSpec, completionSpec, flagsOf, optionsAt } from '../../src/completion/spec.js';
import { writeProfile } from '../../src/config/store.js';
import { createDeps } from '../../src/deps.js';
import { main } from '../../src/main.js';
import { buildWholeProgram } from '../../src/program.js';
import { fakeIo } from '../helpers/fake-io.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** A fresh whole tree, every noun's verbs added (a test may add a flag to it). */
function program() {
  return buildWholeProgram(createDeps({ io: fakeIo(), env: {} }));
}

const tree = await program();

function find(path: string): CommandSpec {
  const spec = completionSpec(tree);
  const found = allCommands(spec).find((command) => command.path.join(' ') === path);
  if (!found) throw new Error(`no command "${path}" in the tree`);
  return found;
}

describe('the completion model', () => {
  const spec = completionSpec(tree);

  it('has every command of the tree, its aliases, and no hidden one', () => {
    const paths = allCommands(spec).map((command) => command.path.join(' '));
    expect(paths).toEqual(
      expect.arrayContaining(['loan', 'loan approve', 'loan schedule', 'profile use', 'completion']),
    );
    expect(paths).not.toContain('__complete');
    // Every command commander would run is in the model, recursively.
    const walk = (command: typeof tree, path: string[]): string[] =>
      command.commands
        .filter((sub) => !(sub as unknown as { _hidden: boolean })._hidden)
        .flatMap((sub) => [[...path, sub.name()].join(' '), ...walk(sub, [...path, sub.name()])]);
    expect(paths).toEqual(expect.arrayContaining(walk(tree, [])));
  });

  it('offers the root options at every level, and -h everywhere', () => {
    const flags = optionsAt(spec, find('loan approve')).flatMap(flagsOf);
    expect(flags).toEqual(expect.arrayContaining(['--approved-amount', '--tenured-in', '-y', '--yes', '-h', '--help']));
    expect(flags).toEqual(expect.arrayContaining(['--profile', '-o', '--output', '--no-color', '--dry-run']));
    expect(flags).not.toContain('--version');
    expect(optionsAt(spec, spec.root).flatMap(flagsOf)).toContain('--version');
  });

  it('knows the fixed values: .choices(), the enum map, and profile names', () => {
    const option = (path: string, flag: string) => {
      const command = find(path);
      return optionsAt(spec, command).find((candidate) => flagsOf(candidate).includes(flag));
    };
    expect(option('loan approve', '--tenured-in')?.values).toEqual({
      kind: 'choices',
      choices: ['months', 'days', 'weeks'],
    });
    expect(option('loan schedule', '--rate-type')?.values).toEqual({
      kind: 'choices',
      choices: ['simple-interest', 'compound-interest', 'fixed-amount'],
    });
    // What the operator types, not the API's spelling `weekely`.
    expect(option('loan schedule', '--frequency')?.values).toEqual({
      kind: 'choices',
      choices: ['daily', 'weekly', 'bi-weekly', 'monthly'],
    });
    expect(option('loan list', '--direction')?.values).toEqual({ kind: 'choices', choices: ['ASC', 'DESC'] });
    expect(option('loan list', '-o')?.values).toEqual({
      kind: 'choices',
      choices: ['table', 'json', 'ndjson', 'csv', 'xlsx'],
    });
    expect(option('loan list', '--profile')?.values).toEqual({ kind: 'profiles' });
    expect(option('sandbox start', '--data-dir')?.values).toEqual({ kind: 'directories' });
    expect(option('loan schedule', '--exclude-weekends')?.takesValue).toBe(false);
    expect(find('profile use').arguments[0]?.values).toEqual({ kind: 'profiles' });
    expect(find('profile remove').arguments[0]?.values).toEqual({ kind: 'profiles' });
    expect(find('profile add').arguments[0]?.values).toEqual({ kind: 'none' });
    expect(find('sandbox restore').arguments[0]?.values).toEqual({ kind: 'snapshots' });
    expect(find('sandbox faults clear').arguments[0]).toMatchObject({ variadic: true, values: { kind: 'faults' } });
    expect(find('completion').arguments[0]?.values).toEqual({ kind: 'choices', choices: ['bash', 'zsh', 'fish'] });
    expect(find('help').arguments[0]?.values).toMatchObject({
      kind: 'choices',
      choices: expect.arrayContaining(['loan']),
    });
  });
});

describe('the checked-in scripts', () => {
  for (const shell of SHELLS) {
    it(`completions/${COMPLETION_FILES[shell]} is what \`loanctl completion ${shell}\` prints for today's tree`, () => {
      const path = join(ROOT, 'completions', COMPLETION_FILES[shell]);
      const fresh = completionScript(shell, tree);
      let checkedIn: string;
      try {
        checkedIn = readFileSync(path, 'utf8');
      } catch {
        throw new Error(`completions/${COMPLETION_FILES[shell]} is missing: run \`npm run completions\`.`);
      }
      if (checkedIn !== fresh) throw new Error(staleMessage(COMPLETION_FILES[shell], checkedIn, fresh));
    });
  }

  it('a script is generated from the tree it is given (one more flag shows up)', async () => {
    const fresh = await program();
    const before = completionScript('bash', fresh);
    fresh.commands.find((command) => command.name() === 'loan')?.option('--brand-new-flag <x>', 'test');
    const after = completionScript('bash', fresh);
    expect(before).not.toContain('--brand-new-flag');
    expect(after).toMatch(/'loan'\) REPLY='[^']*--brand-new-flag/);
  });
});

/** Says which lines the tree added and removed, so the failure shows which commands or flags changed. */
function staleMessage(file: string, checkedIn: string, fresh: string): string {
  const old = checkedIn.split('\n');
  const now = fresh.split('\n');
  const oldSet = new Set(old);
  const nowSet = new Set(now);
  const added = now.filter((line) => !oldSet.has(line)).slice(0, 12);
  const removed = old.filter((line) => !nowSet.has(line)).slice(0, 12);
  return [
    `completions/${file} is stale: the command tree changed since it was generated. Run \`npm run completions\` and commit it.`,
    ...(added.length > 0 ? ['  lines the tree now gives:', ...added.map((line) => `    + ${line.trim()}`)] : []),
    ...(removed.length > 0 ? ['  lines no longer given:', ...removed.map((line) => `    - ${line.trim()}`)] : []),
  ].join('\n');
}

describe('loanctl completion and __complete (in-process)', () => {
  it('`completion bash` prints the script; an unknown shell is a usage error (exit 2)', async () => {
    const io = fakeIo();
    expect(await main(['completion', 'bash'], createDeps({ io, env: {} }))).toBe(0);
    // It runs this loanctl by its full paths for the names: this process's Node and script.
    expect(io.stdout.text()).toBe(completionScript('bash', tree, thisLoanctl(process.execPath, process.argv[1])));
    expect(io.stdout.text()).toContain(`command '${process.execPath}'`);
    const bad = fakeIo();
    expect(await main(['completion', 'tcsh'], createDeps({ io: bad, env: {} }))).toBe(2);
    expect(bad.stderr.text()).toMatch(/bash, zsh, fish/);
  });

  it('`__complete profiles` prints the profile names from the config dir, needing no key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loanctl-completion-'));
    const env = { LOANCTL_CONFIG_DIR: dir };
    const empty = fakeIo();
    expect(await main(['__complete', 'profiles'], createDeps({ io: empty, env }))).toBe(0);
    expect(empty.stdout.text()).toBe('');
    writeProfile('staging', { baseUrl: 'https://staging.example.com', apiKey: 'k1' }, { env });
    writeProfile('prod', { baseUrl: 'https://api.example.com', apiKey: 'k2' }, { env });
    const io = fakeIo();
    expect(await main(['__complete', 'profiles'], createDeps({ io, env }))).toBe(0);
    expect(io.stdout.text()).toBe('prod\nstaging\n');
    expect(io.stdout.text()).not.toContain('k1');
  });

  it('`__complete faults` prints each fault id and what it does, of the --data-dir given, else the default one', async () => {
    const home = mkdtempSync(join(tmpdir(), 'loanctl-completion-'));
    const env = { XDG_DATA_HOME: home };
    const other = join(home, 'other');
    const run = async (...args: string[]) => {
      const io = fakeIo();
      expect(await main(args, createDeps({ io, env })), io.stderr.text()).toBe(0);
      return io.stdout.text();
    };
    // No sandbox yet: nothing, and none is made for the asking.
    expect(await run('__complete', 'faults')).toBe('');
    expect(existsSync(join(home, 'loanctl'))).toBe(false);
    await run('sandbox', 'faults', 'add', '--path', '/api/v1/user', '--method', 'GET', '--status', '503');
    await run('sandbox', 'faults', 'add', '--preset', 'tokenize-500');
    await run('sandbox', 'faults', 'add', '--data-dir', other, '--path', '/api/**', '--latency', '2s');
    expect(await run('__complete', 'faults')).toMatch(
      /^1\tGET \/api\/v1\/user → 503 .*\n2\tPOST .*tokenize.* → 500 .*\n$/,
    );
    expect(await run('__complete', 'faults', '--data-dir', other)).toMatch(
      /^1\tany method \/api\/\*\* → after 2000 ms, .*\n$/,
    );
    expect(await run('__complete', 'snapshots', '--data-dir', other)).toBe('');
    await run('sandbox', 'snapshot', 'elsewhere', '--data-dir', other);
    expect(await run('__complete', 'snapshots', '--data-dir', other)).toBe('elsewhere\n');
    expect(await run('__complete', 'snapshots')).toBe('');
  });

  it('`__complete` is hidden from help and from completion', async () => {
    const io = fakeIo();
    await main(['--help'], createDeps({ io, env: {} }));
    expect(io.stdout.text()).toContain('completion');
    expect(io.stdout.text()).not.toContain('__complete');
    expect(completionScript('bash', tree)).not.toMatch(/REPLY='[^']*__complete/);
  });
});
