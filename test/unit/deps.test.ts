import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDeps } from '../../src/deps.js';
import { main } from '../../src/main.js';
import type { Prompter } from '../../src/prompts/prompter.js';
import { fakeIo } from '../helpers/fake-io.js';

function prompter(answers: { password?: string; confirm?: boolean } = {}) {
  const asked: string[] = [];
  const fake: Prompter = {
    password: async (message) => {
      asked.push(message);
      return answers.password ?? '';
    },
    input: async (message) => {
      asked.push(message);
      return '';
    },
    confirm: async (message) => {
      asked.push(message);
      return answers.confirm ?? false;
    },
  };
  return { fake, asked };
}

describe('isInteractive', () => {
  it('needs stdin and stdout on a TTY, CI unset and no --no-input', () => {
    const tty = fakeIo({ tty: true });
    expect(createDeps({ io: tty, env: {} }).isInteractive()).toBe(true);
    expect(createDeps({ io: tty, env: { CI: 'true' } }).isInteractive()).toBe(false);
    expect(createDeps({ io: tty, env: {}, globals: { input: false } }).isInteractive()).toBe(false);
    expect(createDeps({ io: fakeIo(), env: {} }).isInteractive()).toBe(false);
    expect(createDeps({ io: { ...tty, stdout: fakeIo().stdout }, env: {} }).isInteractive()).toBe(false);
  });
});

describe('canAskOnStderr', () => {
  it('needs stdin and stderr on a TTY (stdout may be a file), CI unset and no --no-input', () => {
    const tty = fakeIo({ tty: true });
    const toFile = { ...tty, stdout: fakeIo().stdout };
    expect(createDeps({ io: toFile, env: {} }).canAskOnStderr()).toBe(true);
    expect(createDeps({ io: toFile, env: { CI: 'true' } }).canAskOnStderr()).toBe(false);
    expect(createDeps({ io: toFile, env: {}, globals: { input: false } }).canAskOnStderr()).toBe(false);
    expect(createDeps({ io: { ...toFile, stderr: fakeIo().stderr }, env: {} }).canAskOnStderr()).toBe(false);
    expect(createDeps({ io: fakeIo(), env: {} }).canAskOnStderr()).toBe(false);
  });
});

describe('profile add on a terminal', () => {
  it('asks for the key with a masked prompt and stores it', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'loanctl-deps-')), 'cfg');
    const io = fakeIo({ tty: true });
    const { fake, asked } = prompter({ password: '  typed-secret-key-0001  ' });
    const code = await main(
      // In the file, to read it back here (test/e2e/keyring.test.ts covers the keyring).
      ['profile', 'add', 'prod', '--base-url', 'https://api.example.com', '--insecure-storage'],
      createDeps({ io, env: { LOANCTL_CONFIG_DIR: dir }, prompter: fake }),
    );
    expect(code).toBe(0);
    expect(asked).toEqual(['API key for prod:']);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.prod.apiKey).toBe(
      'typed-secret-key-0001',
    );
    expect(io.stdout.text() + io.stderr.text()).not.toContain('typed-secret');
  });

  it('with --no-input it does not prompt: exit 2 naming --api-key-stdin', async () => {
    const io = fakeIo({ tty: true });
    const { fake, asked } = prompter({ password: 'x' });
    const code = await main(
      ['profile', 'add', 'prod', '--base-url', 'https://api.example.com', '--no-input'],
      createDeps({ io, env: { LOANCTL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'loanctl-deps-')) }, prompter: fake }),
    );
    expect(code).toBe(2);
    expect(asked).toEqual([]);
    expect(io.stderr.text()).toContain('--api-key-stdin');
  });

  it('Ctrl-C at the prompt is exit 130', async () => {
    const io = fakeIo({ tty: true });
    const cancelled: Prompter = {
      ...prompter().fake,
      password: async () => {
        const error = new Error('User force closed the prompt');
        error.name = 'ExitPromptError';
        throw error;
      },
    };
    const code = await main(
      ['profile', 'add', 'prod', '--base-url', 'https://api.example.com'],
      createDeps({
        io,
        env: { LOANCTL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'loanctl-deps-')) },
        prompter: cancelled,
      }),
    );
    expect(code).toBe(130);
  });
});
