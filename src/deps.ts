/**
 * The dependencies every command receives: the wiring, at the top, which joins the layers
 * (docs/architecture.md#layers). Production wires the real ones in `productionDeps`; tests pass
 * their own through `createDeps({...})`. The basic types every layer shares are in basics.ts, which
 * imports nothing; nothing in config/, http/, prompts/ or output/ imports this file. Anything
 * heavy is reached lazily, so `--help`, `--version`, `profile` and `completion` load neither the
 * HTTP stack nor inquirer, and need no API key.
 */
import { abortableSleep, type Env, type GlobalOptions, type Io } from './basics.js';
import type { Settings } from './config/settings.js';
import type { ProfileStore } from './config/store.js';
import type { ApiClient } from './http/api-client.js';
import type { Transport } from './http/transport.js';
import type { Prompter } from './prompts/prompter.js';

export interface Deps {
  io: Io;
  env: Env;
  /** The clock, so tests can pin dates. */
  now: () => Date;
  /** The global flags of this run. */
  globals: GlobalOptions;
  /** The profile store, opened (read) on first use. */
  config(): Promise<ProfileStore>;
  /**
   * The effective settings of this run: flag > env > profile > default. With `withKey`, a key the
   * profile keeps in the OS keyring is read too (once a run): only what is about to call the API
   * asks for it, so a usage error never depends on the keyring.
   */
  settings(options?: { withKey?: boolean }): Promise<Settings>;
  /**
   * The API client, built on first use (loads the HTTP stack then). Asking for it never fails for a
   * missing key: the first call does, with an AuthError (and `--dry-run` needs no key). A key the
   * profile keeps in the OS keyring is read here: a keyring that does not answer is an AuthError.
   */
  api(): Promise<ApiClient>;
  /** Masked and plain prompts (inquirer, loaded on first use); prompts draw on stderr. */
  prompter: Prompter;
  /** stdin and stdout are TTYs, `CI` is unset and `--no-input` was not given. */
  isInteractive(): boolean;
  /**
   * A person can answer questions while stdout goes to a file or a pipe: stdin and stderr (where
   * prompts draw) are TTYs, `CI` is unset and `--no-input` was not given. Only for a command that
   * is nothing but questions and prints only its record on stdout (`loan review -o json > file`).
   */
  canAskOnStderr(): boolean;
  /** Waits `ms`; ends early (resolving) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Closes what the run opened (the HTTP pool), so the process can exit at once. With `abort`
   * (the run was cancelled) requests still out are dropped instead of awaited.
   */
  dispose(options?: { abort?: boolean }): Promise<void>;
}

export interface DepsOptions {
  io?: Io;
  env?: Env;
  now?: () => Date;
  globals?: GlobalOptions;
  /**
   * The pool to send through. Default: the client's own keep-alive pool. Tests pass a fake one
   * only for faults a real server cannot be made to produce (DNS, TLS, connect timeouts).
   */
  transport?: Transport;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source for retries; tests pin it. */
  random?: () => number;
  prompter?: Prompter;
}

export function createDeps(options: DepsOptions = {}): Deps {
  const io = options.io ?? processIo();
  const env = options.env ?? process.env;
  let store: Promise<ProfileStore> | undefined;
  let client: Promise<ApiClient> | undefined;
  let keyringKey: Promise<string> | undefined;

  const mayAsk = () => !env.CI && deps.globals.input !== false;
  const deps: Deps = {
    io,
    env,
    now: options.now ?? (() => new Date()),
    globals: options.globals ?? {},
    config() {
      store ??= import('./config/store.js').then(({ openProfileStore }) =>
        openProfileStore({ env, warn: (line) => io.stderr.write(`loanctl: warning: ${line}\n`) }),
      );
      return store;
    },
    async settings(settingsOptions = {}) {
      const { resolveSettings } = await import('./config/settings.js');
      const store = await deps.config();
      const settings = resolveSettings({ globals: deps.globals, env, store });
      const { keyringAccount, profile } = settings;
      // The output flags are checked here too (e.g. --raw with --fields), so a usage error stops
      // the run before anything is sent rather than when the reply is printed.
      const { resolveOutputSettings } = await import('./output/settings.js');
      resolveOutputSettings(deps.globals, env, io, () => profile && store.get(profile.name));
      // --dry-run sends nothing, so it needs no key: it does not touch the keyring either.
      if (settingsOptions.withKey && keyringAccount !== undefined && profile && !settings.dryRun) {
        keyringKey ??= import('./config/key-storage.js').then(({ readKeyringKey }) =>
          readKeyringKey(profile.name, keyringAccount),
        );
        settings.apiKey = await keyringKey;
      }
      return settings;
    },
    api() {
      client ??= (async () => {
        const settings = await deps.settings({ withKey: true });
        const { createApiClient } = await import('./http/client.js');
        return createApiClient(settings, {
          io,
          now: deps.now,
          sleep: deps.sleep,
          random: options.random ?? Math.random,
          transport: options.transport,
          env,
        });
      })();
      return client;
    },
    prompter: options.prompter ?? lazyPrompter(io),
    isInteractive() {
      return Boolean(io.stdin.isTTY && io.stdout.isTTY) && mayAsk();
    },
    canAskOnStderr() {
      // `io`, not deps.io: --quiet swaps deps.io's stderr for a sink; the questions still draw here.
      return Boolean(io.stdin.isTTY && io.stderr.isTTY) && mayAsk();
    },
    sleep: options.sleep ?? abortableSleep,
    async dispose(disposeOptions = {}) {
      if (!client) return;
      const pending = client;
      client = undefined;
      await pending.then((api) => api.close(disposeOptions)).catch(() => {});
    },
  };
  return deps;
}

/**
 * The process's stdio, each stream reached only when first used: Node creates process.stdin on
 * first access, and for a file or pipe that loads the fs stream modules (several ms of start-up
 * that `--version` and `--help` never need).
 */
function processIo(): Io {
  return {
    get stdin() {
      return process.stdin;
    },
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
  };
}

export function productionDeps(): Deps {
  return createDeps();
}

/** The inquirer-backed prompter, imported only when a prompt is actually shown. */
function lazyPrompter(io: Io): Prompter {
  const real = () => import('./prompts/prompter.js').then(({ inquirerPrompter }) => inquirerPrompter(io));
  return {
    password: async (message, options) => (await real()).password(message, options),
    input: async (message, options) => (await real()).input(message, options),
    confirm: async (message, options) => (await real()).confirm(message, options),
    select: async (message, choices, options) => (await real()).select(message, choices, options),
    // Drawn where the questions are: this `io` is the one from before --quiet swapped deps.io.
    note: (line) => io.stderr.write(`${line}\n`),
  };
}
