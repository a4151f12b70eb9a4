/**
 * The completion scripts run in real shells, printed by the real built CLI (`loanctl completion
 * <shell>`): bash through its function with COMP_WORDS/COMP_CWORD set; zsh through its completion
 * system in a pseudo-terminal (zpty), with compadd wrapped to print what it is given; fish through
 * `complete -C`. Profile names, snapshot names and fault ids come from a temporary
 * LOANCTL_CONFIG_DIR, XDG_DATA_HOME and a data dir under HOME (named by --data-dir on the line)
 * through the script's call back to `__complete`: the scripts are printed by a
 * `loanctl` wrapper that runs bin/loanctl.js on this Node, then run with no loanctl on PATH at all
 * (the script calls the Node and script that printed it, by their full paths).
 *
 * zsh and fish are skipped (saying so) where they are not installed; .ci/run installs them.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeProfile } from '../../src/config/store.js';
import { assertBuilt, BIN, ROOT } from '../helpers/cli.js';

function installed(shell: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const HAS_ZSH = installed('zsh');
const HAS_FISH = installed('fish');

let base: string;
let env: Record<string, string>;
const scripts: Record<'bash' | 'zsh' | 'fish', string> = { bash: '', zsh: '', fish: '' };
let zshFpath: string;
/** Holds the `loanctl` wrapper, for the lines a reader types (never on PATH while completing). */
let binDir: string;
/** Types a line and Tab into an interactive zsh and prints the matches (see the file). */
const zshDriver = join(import.meta.dirname, 'completion-capture.zsh');

beforeAll(async () => {
  assertBuilt();
  base = mkdtempSync(join(tmpdir(), 'loanctl-completion-'));
  binDir = join(base, 'bin');
  const configDir = join(base, 'config');
  zshFpath = join(base, 'zfunc');
  mkdirSync(binDir);
  mkdirSync(zshFpath);
  // The loanctl that prints the scripts; they then run without it (or any loanctl) on PATH.
  writeFileSync(join(binDir, 'loanctl'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(binDir, 'loanctl'), 0o755);
  env = {
    PATH: process.env.PATH ?? '',
    HOME: join(base, 'home'),
    LOANCTL_CONFIG_DIR: configDir,
    XDG_DATA_HOME: join(base, 'data'),
    NO_COLOR: '1',
    TERM: 'dumb',
  };
  expect(execFileSync('sh', ['-c', 'command -v loanctl || echo none'], { env, encoding: 'utf8' }).trim()).toBe('none');
  writeProfile('prod', { baseUrl: 'https://api.example.com', apiKey: 'secret-1' }, { env });
  writeProfile('staging', { baseUrl: 'https://staging.example.com', apiKey: 'secret-2' }, { env });
  const snapshots = join(base, 'data', 'loanctl', 'sandbox', 'snapshots');
  mkdirSync(snapshots, { recursive: true });
  for (const name of ['before-test', 'clean']) writeFileSync(join(snapshots, `${name}.db`), '');
  // Faults #2 and #3 in the default data dir (#1 cleared); #1 and a snapshot in ~/sbx.
  const loanctl = (...args: string[]) => execa(join(binDir, 'loanctl'), args, { env, extendEnv: false, cwd: ROOT });
  for (const status of ['500', '503', '504'])
    await loanctl('sandbox', 'faults', 'add', '--path', '/api/v1/user', '--status', status);
  await loanctl('sandbox', 'faults', 'clear', '1');
  const other = join(env.HOME as string, 'sbx');
  await loanctl('sandbox', 'faults', 'add', '--data-dir', other, '--preset', 'gateway-503');
  mkdirSync(join(other, 'snapshots'));
  writeFileSync(join(other, 'snapshots', 'elsewhere.db'), '');

  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    const result = await execa(join(binDir, 'loanctl'), ['completion', shell], { env, extendEnv: false, cwd: ROOT });
    scripts[shell] = result.stdout;
    writeFileSync(join(base, `script.${shell}`), `${result.stdout}\n`);
  }
  writeFileSync(join(zshFpath, '_loanctl'), `${scripts.zsh}\n`);
});

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

/** A command line as typed before Tab: its words, the last being the one completed ('' after a space). */
function words(line: string): string[] {
  return line.split(' ');
}

/** bash: print COMPREPLY one a line. */
const PRINT_REPLY = 'printf "%s\\n" "$' + '{COMPREPLY[@]}"';

const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

async function bash(line: string, shellEnv = env): Promise<string[]> {
  const list = words(line);
  const program = [
    `source ${quote(join(base, 'script.bash'))}`,
    `COMP_WORDS=(${list.map(quote).join(' ')})`,
    `COMP_CWORD=${list.length - 1}`,
    `COMP_LINE=${quote(line)}`,
    `COMP_POINT=${line.length}`,
    '_loanctl',
    PRINT_REPLY,
  ].join('\n');
  const result = await execa('bash', ['--norc', '--noprofile', '-c', program], {
    env: shellEnv,
    extendEnv: false,
    cwd: base,
  });
  return lines(result.stdout);
}

async function zsh(line: string, how: 'fpath' | 'source' = 'fpath', shellEnv = env): Promise<string[]> {
  const result = await execa('zsh', ['-f', zshDriver, zshFpath, line, ...(how === 'source' ? ['source'] : [])], {
    env: shellEnv,
    extendEnv: false,
    cwd: base,
    // An interactive zsh whose completion starts loanctl (profiles, snapshots) took 20 s at load
    // average 26 on two cores; the test's own limit (vitest.shells.config.ts) is above this one.
    timeout: 60_000,
  });
  return lines(result.stdout);
}

async function fish(line: string, shellEnv = env): Promise<string[]> {
  const result = await execa(
    'fish',
    ['--no-config', '-c', `source ${quote(join(base, 'script.fish'))}; complete -C ${quote(line)}`],
    { env: shellEnv, extendEnv: false, cwd: base },
  );
  return lines(result.stdout).map((entry) => entry.split('\t')[0] as string);
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line !== '');
}

/** The cases every shell must complete the same way. */
const CASES: Array<[line: string, expected: string[]]> = [
  ['loanctl lo', ['loan']],
  ['loanctl loan app', ['approve']],
  ['loanctl loan sch', ['schedule']],
  ['loanctl pro', ['profile']],
  ['loanctl loan approve 172 --tenured-in ', ['months', 'days', 'weeks']],
  ['loanctl loan schedule --frequency ', ['daily', 'weekly', 'bi-weekly', 'monthly']],
  ['loanctl loan schedule --amount 100000 --rate-type ', ['simple-interest', 'compound-interest', 'fixed-amount']],
  ['loanctl loan list --direction ', ['ASC', 'DESC']],
  ['loanctl -o ', ['table', 'json', 'ndjson', 'csv', 'xlsx']],
  ['loanctl loan list --output ', ['table', 'json', 'ndjson', 'csv', 'xlsx']],
  ['loanctl --profile ', ['prod', 'staging']],
  ['loanctl loan show 172 --profile st', ['staging']],
  ['loanctl profile use ', ['prod', 'staging']],
  ['loanctl profile remove p', ['prod']],
  ['loanctl sandbox restore ', ['before-test', 'clean']],
  ['loanctl sandbox restore c', ['clean']],
  ['loanctl completion ', ['bash', 'zsh', 'fish']],
  // Fault ids of the default data dir, of the one --data-dir names (~ and relative, as typed).
  ['loanctl sandbox faults clear ', ['2', '3']],
  ['loanctl sandbox faults clear 2 ', ['2', '3']],
  ['loanctl sandbox faults clear --data-dir ~/sbx ', ['1']],
  ['loanctl sandbox faults clear --data-dir=home/sbx ', ['1']],
  ['loanctl sandbox restore --data-dir ~/sbx ', ['elsewhere']],
  // An option's value is skipped while walking: --tenured-in's value is not taken for a command.
  ['loanctl loan approve 172 --tenured-in months --exc', ['--exclude-weekends']],
  ['loanctl --profile prod loan sch', ['schedule']],
  ['loanctl loan schedule --tenure 3 --rate-t', ['--rate-type']],
  // An API path is not a local file: nothing is offered (the cwd has files that would show).
  ['loanctl api GET ', []],
  // The bulk file's format.
  ['loanctl user create --from rows.csv --format ', ['ndjson', 'csv']],
  ['loanctl loan create --format n', ['ndjson']],
];

describe('bash completion (the real _loanctl function, COMP_WORDS/COMP_CWORD set)', () => {
  it.each(CASES)('%s<TAB>', async (line, expected) => {
    expect((await bash(line)).sort()).toEqual([...expected].sort());
  });

  it('offers every top-level command and no hidden one', async () => {
    const offered = await bash('loanctl ');
    expect(offered).toEqual(
      expect.arrayContaining(['loan', 'user', 'profile', 'sandbox', 'api', 'completion', 'help']),
    );
    expect(offered).not.toContain('__complete');
  });

  it("completes a value after bash's split of --flag=value ('--tenured-in' '=' 'w')", async () => {
    const program = [
      `source ${quote(join(base, 'script.bash'))}`,
      'COMP_WORDS=(loanctl loan schedule --tenured-in = w)',
      'COMP_CWORD=5',
      '_loanctl',
      PRINT_REPLY,
    ].join('\n');
    const result = await execa('bash', ['--norc', '--noprofile', '-c', program], { env, extendEnv: false });
    expect(lines(result.stdout)).toEqual(['weeks']);
  });

  it('offers nothing for a free-text value (no wrong guesses)', async () => {
    expect(await bash('loanctl loan create --amount ')).toEqual([]);
  });

  it('is valid bash (bash -n)', async () => {
    await execa('bash', ['-n', join(base, 'script.bash')]);
  });
});

describe.skipIf(!HAS_ZSH)(
  `zsh completion (its completion system in a pseudo-terminal)${HAS_ZSH ? '' : ' — skipped: zsh is not installed (.ci/run installs it)'}`,
  { concurrent: true },
  () => {
    it.each(CASES)('%s<TAB>', async (line, expected) => {
      expect((await zsh(line)).sort()).toEqual([...expected].sort());
    });

    it('completes --flag=value in one word', async () => {
      expect(await zsh('loanctl loan approve 1 --rate-type=co')).toEqual(['compound-interest']);
    });

    it('works sourced too (source <(loanctl completion zsh) after compinit)', async () => {
      expect(await zsh('loanctl loan sch', 'source')).toEqual(['schedule']);
      expect((await zsh('loanctl profile use ', 'source')).sort()).toEqual(['prod', 'staging']);
    });
  },
);

describe.skipIf(!HAS_FISH)(
  `fish completion (complete -C)${HAS_FISH ? '' : ' — skipped: fish is not installed (.ci/run installs it)'}`,
  { concurrent: true },
  () => {
    it.each(CASES)('%s<TAB>', async (line, expected) => {
      expect((await fish(line)).sort()).toEqual([...expected].sort());
    });

    it('completes --flag=value in one word, and shows descriptions', async () => {
      expect(await fish('loanctl loan approve 1 --rate-type=co')).toEqual(['--rate-type=compound-interest']);
      const result = await execa(
        'fish',
        ['--no-config', '-c', `source ${quote(join(base, 'script.fish'))}; complete -C 'loanctl lo'`],
        { env, extendEnv: false },
      );
      expect(result.stdout).toMatch(/^loan\tCreate loan requests/);
    });

    it('shows what each fault does beside its id', async () => {
      const result = await execa(
        'fish',
        [
          '--no-config',
          '-c',
          `source ${quote(join(base, 'script.fish'))}; complete -C 'loanctl sandbox faults clear '`,
        ],
        { env, extendEnv: false, cwd: base },
      );
      expect(lines(result.stdout)).toEqual(
        [
          'any method /api/v1/user → 503 (bare, no envelope); fired 0 times',
          'any method /api/v1/user → 504 (bare, no envelope); fired 0 times',
        ].map((description, i) => `${i + 2}\t${description}`),
      );
    });
  },
);

/**
 * Names a stranger could choose (a snapshot copied in, a profile in a shared config file): each is
 * offered as it is, and Tab runs none of them. A name that cannot be one line is not offered.
 */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a name holding the shell's ${…} is the point
const HOSTILE = ['$(touch PWN1)', 'a:b', '`touch PWN2`', '${HOME}', 'x;touch PWN3', '*', 'two words', "it's"];
const UNOFFERABLE = 'line\n$(touch PWN4)';
let hostileEnv: Record<string, string>;

describe('completion treats every name as data (hostile snapshot and profile names)', { concurrent: true }, () => {
  beforeAll(() => {
    const root = join(base, 'hostile');
    hostileEnv = {
      ...env,
      HOME: join(root, 'home'),
      LOANCTL_CONFIG_DIR: join(root, 'config'),
      XDG_DATA_HOME: join(root, 'data'),
    };
    const snapshots = join(root, 'data', 'loanctl', 'sandbox', 'snapshots');
    mkdirSync(snapshots, { recursive: true });
    mkdirSync(join(root, 'home'));
    mkdirSync(join(root, 'config'), { mode: 0o700 });
    for (const name of [...HOSTILE, UNOFFERABLE]) writeFileSync(join(snapshots, `${name}.db`), '');
    // Written by hand, as a stranger with access to the file would: `profile add` refuses such names.
    const profiles = Object.fromEntries(
      [...HOSTILE, UNOFFERABLE].map((name) => [name, { baseUrl: 'https://a.example', apiKey: 'k' }]),
    );
    writeFileSync(join(root, 'config', 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
  });

  afterAll(() => {
    for (const file of ['PWN1', 'PWN2', 'PWN3', 'PWN4']) {
      expect(existsSync(join(base, file)), `${file} was created: a name ran as a command`).toBe(false);
    }
  });

  const lines = ['loanctl sandbox restore ', 'loanctl profile use '];

  it.each(lines)('bash: %s<TAB> offers each name quoted, which reads back as the name', async (line) => {
    const list = words(line);
    const program = [
      `source ${quote(join(base, 'script.bash'))}`,
      `COMP_WORDS=(${list.map(quote).join(' ')})`,
      `COMP_CWORD=${list.length - 1}`,
      '_loanctl',
      // What the line holds after Tab, read back the way the shell reads the line when it runs.
      'for word in "$' + '{COMPREPLY[@]}"; do eval "printf \'%s\\n\' $word"; done',
    ].join('\n');
    const result = await execa('bash', ['--norc', '--noprofile', '-c', program], {
      env: hostileEnv,
      extendEnv: false,
      cwd: base,
    });
    expect(result.stdout.split('\n').sort()).toEqual([...HOSTILE].sort());
  });

  it('bash: a typed prefix is matched as text, not as a pattern', async () => {
    expect(await bash('loanctl sandbox restore $(t', hostileEnv)).toEqual(['\\$\\(touch\\ PWN1\\)']);
    expect(await bash('loanctl profile use *', hostileEnv)).toEqual(['\\*']);
  });

  it.skipIf(!HAS_ZSH).each(lines)('zsh: %s<TAB> offers each name, quoted as zsh inserts it', async (line) => {
    // compadd reports a match as it goes on the line: \-quoted.
    const unquoted = (await zsh(line, 'fpath', hostileEnv)).map((hit) => hit.replace(/\\(.)/g, '$1'));
    expect(unquoted.sort()).toEqual([...HOSTILE].sort());
  });

  it.skipIf(!HAS_FISH).each(lines)('fish: %s<TAB> offers each name as it is', async (line) => {
    expect((await fish(line, hostileEnv)).sort()).toEqual([...HOSTILE].sort());
  });
});

describe("the guide's install lines for completion", () => {
  it('work as written in a fresh home (no completions directory yet): each writes its script', async () => {
    const guide = readFileSync(join(ROOT, 'docs/guide.md'), 'utf8');
    const section = guide.slice(guide.indexOf('## Shell completion'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    // The lines that install a file (not `source <(…)`, which is for this shell only).
    const lines = block.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
    const script = lines.filter((line) => !line.startsWith('source ')).join('\n');
    expect(script).toContain('completion fish');
    const home = join(base, 'fresh-home');
    const { XDG_DATA_HOME: _unset, ...plain } = env;
    const result = await execa('bash', ['--norc', '--noprofile', '-e', '-c', script], {
      env: { ...plain, HOME: home, PATH: `${binDir}:${env.PATH}` },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const installed = {
      bash: join(home, '.local/share/bash-completion/completions/loanctl'),
      zsh: join(home, '.zfunc/_loanctl'),
      fish: join(home, '.config/fish/completions/loanctl.fish'),
    };
    for (const [shell, path] of Object.entries(installed)) {
      expect(readFileSync(path, 'utf8').trim(), shell).toBe(scripts[shell as keyof typeof scripts].trim());
    }
  });
});
