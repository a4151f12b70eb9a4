/** `loanctl sandbox start`: serve the sandbox until SIGINT or SIGTERM. */
import { join } from 'node:path';
import type { Deps } from '../../deps.js';
import { ExitCode, UsageError } from '../../errors.js';
import { makeDir } from '../../make-dir.js';
import { type OutcomeOutput, openOutcome } from '../../output/render.js';
import { DEMO_CREDENTIALS_FILE } from '../../sandbox/admin.js';
import { alreadyRunningError, type DetachedSandbox, logFilePath, startDetached } from '../../sandbox/control/detach.js';
import { claimRunFile, releaseRunFile, updateRunFile } from '../../sandbox/control/run-file.js';
import { isHostName, isLoopback } from '../../sandbox/hosts.js';
import { type RunningSandbox, startSandboxServer } from '../../sandbox/server.js';
import { sandboxErrorLine } from '../common/sandbox-error-line.js';
import { onSandboxListening, type SandboxListening, type WrittenProfile } from '../common/sandbox-listening.js';
import { parseWholeNumber, resolveDataDir, waitForStop } from './run-helpers.js';

export interface SandboxStartOptions {
  host?: string;
  /** `--allow-host`, repeatable: names besides loopback and the host that requests may give (hosts.ts). */
  allowHost?: string[];
  port?: string;
  dataDir?: string;
  json?: boolean;
  /** Start in the background and return once it listens (control/detach.ts). */
  detach?: boolean;
  /** Set by `--detach` on the server it starts: print no key (its output goes to a log file). */
  detachedChild?: boolean;
  /** For tests: stop when this aborts, instead of (as well as) on SIGINT/SIGTERM. */
  stopSignal?: AbortSignal;
  /** Any flags added later (e.g. `--no-profile`), passed on to the after-listen seam. */
  [flag: string]: unknown;
}

export async function runSandboxStart(options: SandboxStartOptions, deps: Deps): Promise<void> {
  const host = (options.host ?? '127.0.0.1').trim();
  if (host === '') throw new UsageError('--host must not be empty.');
  const allowHosts = allowedHosts(options.allowHost);
  if (!isLoopback(host) && !options.detachedChild) deps.io.stderr.write(networkWarning(host));
  const port = parseWholeNumber(options.port ?? '4010', '--port', 0, 65_535);
  const dataDir = resolveDataDir(options.dataDir, deps);
  // Opened before anything is made: a --fields naming none of its fields is exit 2 with nothing started.
  const output = await openStartOutput(options, deps, options.detach ? DETACHED_FIELDS : LISTENING_FIELDS);
  if (options.detach) {
    const started = await startDetached({
      dataDir,
      host,
      port,
      allowHosts,
      profile: options.profile !== false,
      env: deps.env,
    });
    await printDetached(started, output, jsonLine(options, deps), deps);
    return;
  }

  const startedAt = new Date().toISOString();
  const claim = { pid: process.pid, started_at: startedAt };
  let owner: ReturnType<typeof claimRunFile>;
  try {
    // The data dir first (0700), so a dir that cannot be made is said as such, not as its run file.
    makeDir(dataDir);
    owner = claimRunFile(dataDir, claim);
  } catch (error) {
    throw listenError(error, host, port, dataDir);
  }
  if (owner) throw alreadyRunningError(dataDir, owner);
  try {
    await serveUntilStopped(options, { deps, output }, { dataDir, host, port, allowHosts, startedAt });
  } finally {
    releaseRunFile(dataDir);
  }
}

interface Where {
  dataDir: string;
  host: string;
  port: number;
  allowHosts: string[];
  startedAt: string;
}

/** The `--allow-host` names, each checked: a name or address, no port or scheme. */
function allowedHosts(names: string[] = []): string[] {
  for (const name of names) {
    if (!isHostName(name)) {
      throw new UsageError(
        `--allow-host "${name}" is not a host name or address.`,
        'Give the name alone, without scheme or port: --allow-host sandbox.internal',
      );
    }
  }
  return names;
}

/** Said before listening anywhere but loopback: the sandbox has no TLS, and its key opens everything. */
function networkWarning(host: string): string {
  return (
    `Warning: --host ${host} serves the sandbox to the network over plain HTTP: anyone who can reach ` +
    'this machine can call it, and a dashboard sign-in sends the API key unencrypted. ' +
    'Use --host 127.0.0.1 unless you mean that.\n'
  );
}

async function serveUntilStopped(
  options: SandboxStartOptions,
  { deps, output }: { deps: Deps; output: OutcomeOutput },
  where: Where,
): Promise<void> {
  const { dataDir, host, port, allowHosts } = where;
  let running: RunningSandbox;
  try {
    running = await startSandboxServer({
      dataDir,
      host,
      port,
      allowHosts,
      onError: (error) => deps.io.stderr.write(sandboxErrorLine(error, deps)),
    });
  } catch (error) {
    throw listenError(error, host, port, dataDir);
  }

  const info: SandboxListening = {
    url: running.url,
    api_key: running.demo.api_key,
    org_id: running.demo.org_id,
    product_id: running.demo.product_id,
    dataDir,
  };
  let profile: WrittenProfile | undefined;
  try {
    profile = await onSandboxListening(info, options, deps);
  } catch (error) {
    await running.close();
    throw error;
  }

  updateRunFile(dataDir, {
    pid: process.pid,
    started_at: where.startedAt,
    url: running.url,
    host,
    port: running.port,
    ...(options.detachedChild && { log_file: logFilePath(dataDir) }),
  });
  if (options.detachedChild) {
    // Its output is a log file: the key stays out of it (the starting command printed it).
    deps.io.stdout.write(`${new Date().toISOString()} sandbox listening on ${info.url} (pid ${process.pid})\n`);
  } else {
    const shown = { ...info, control_key: running.controlKey };
    await printListening(
      shown,
      output,
      { created: running.demo.created, profile, json: jsonLine(options, deps) },
      deps,
    );
  }

  await waitForStop(options.stopSignal);
  const say = (line: string) => {
    if (options.detachedChild) deps.io.stdout.write(`${new Date().toISOString()} ${line}\n`);
    else if (!jsonLine(options, deps)) deps.io.stderr.write(`${line}\n`);
  };
  say('Stopping the sandbox (finishing requests in flight)…');
  // While requests in flight finish, a second Ctrl-C ends the process at once. Only then: the
  // handler goes with the sandbox, so a later signal is the process's own business again.
  const force = () => process.exit(ExitCode.cancelled);
  process.once('SIGINT', force);
  process.once('SIGTERM', force);
  try {
    await running.close();
  } finally {
    process.off('SIGINT', force);
    process.off('SIGTERM', force);
  }
  say('Sandbox stopped.');
}

/** `-o json` (or its `--json`): one JSON line once listening, for a script to read. */
function jsonLine(options: SandboxStartOptions, deps: Deps): boolean {
  return options.json === true || deps.globals?.output === 'json';
}

/** What start prints once listening, and with `--detach` also where the server runs. */
const LISTENING_FIELDS = ['url', 'api_key', 'org_id', 'product_id', 'control_key'];
const DETACHED_FIELDS = [...LISTENING_FIELDS, 'pid', 'log_file', 'data_dir'];

/**
 * Start prints through -o and --fields like any data, with two differences it always had: `-o
 * json` is one line (as NDJSON prints a record), which a script reads while the sandbox runs; and
 * without `-o` it prints its banner, piped too (not JSON, as other commands do when piped).
 */
function openStartOutput(options: SandboxStartOptions, deps: Deps, names: readonly string[]): Promise<OutcomeOutput> {
  const output = jsonLine(options, deps) ? 'ndjson' : (deps.globals?.output ?? 'table');
  return openOutcome({ io: deps.io, env: deps.env, globals: { ...deps.globals, output } }, names);
}

async function printDetached(started: DetachedSandbox, output: OutcomeOutput, json: boolean, deps: Deps) {
  const { url, api_key, org_id, product_id, control_key, pid, log_file, data_dir } = started;
  await output.print({ url, api_key, org_id, product_id, control_key, pid, log_file, data_dir }, [
    `Sandbox running in the background on ${url}`,
    `  API key:     ${api_key}`,
    `  org id:      ${org_id}`,
    `  product id:  ${product_id}`,
    `  control key: ${control_key}`,
    `  pid:         ${pid}`,
    `  log file:    ${log_file}`,
  ]);
  if (json) return;
  deps.io.stderr.write(
    `Data dir: ${data_dir}. Stop it with: loanctl sandbox stop --data-dir ${JSON.stringify(data_dir)}\n`,
  );
}

/** The URL, key and ids on stdout (a banner on a table); on stderr, except with `-o json`, how to use them. */
async function printListening(
  info: SandboxListening & { control_key: string },
  output: OutcomeOutput,
  { created, profile, json }: { created: boolean; profile: WrittenProfile | undefined; json: boolean },
  deps: Deps,
): Promise<void> {
  const { stderr } = deps.io;
  if (created && !json) stderr.write(`Created a demo organisation and product in ${info.dataDir}.\n`);
  const { url, api_key, org_id, product_id, control_key } = info;
  await output.print({ url, api_key, org_id, product_id, control_key }, [
    `Sandbox listening on ${url}`,
    `  API key:     ${api_key}`,
    `  org id:      ${org_id}`,
    `  product id:  ${product_id}`,
    `  control key: ${control_key} (GET ${url}/__sandbox/requests: what it received)`,
  ]);
  if (json) return;
  stderr.write(
    [
      `Data dir: ${info.dataDir} (demo credentials kept in ${join(info.dataDir, DEMO_CREDENTIALS_FILE)}, mode 0600)`,
      ...tryItLines(info, profile),
      `Dashboard: ${info.url}/dashboard (loanctl sandbox open; sign in with the API key above)`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

/**
 * Commands to paste. None holds the key itself: a pasted key stays in the shell's history (and
 * curl's argv), so they name the profile, or `$LOANCTL_API_KEY` for the shell to fill in.
 */
function tryItLines(info: SandboxListening, profile: WrittenProfile | undefined): string[] {
  const curl = `curl -H "Authorization: Bearer $LOANCTL_API_KEY" "${info.url}/api/v1/loan_request?product-id=${info.product_id}&direction=DESC"`;
  const lines = [`${curl}   (LOANCTL_API_KEY: the API key above)`];
  if (profile) lines.unshift(`loanctl ${profile.current ? '' : `--profile ${profile.name} `}loan list`);
  return lines.map((line, index) => `${index === 0 ? 'Try it:' : ''}`.padEnd(10) + line);
}

function listenError(error: unknown, host: string, port: number, dataDir: string): unknown {
  const failure = error as (NodeJS.ErrnoException & { syscall?: string }) | undefined;
  const code = failure?.code;
  if (code === 'EADDRINUSE') {
    return new UsageError(
      `Port ${port} on ${host} is already in use.`,
      'Stop what uses it, or pick another port with --port (--port 0 picks a free one).',
    );
  }
  if (failure?.syscall === 'listen' && (code === 'EACCES' || code === 'EPERM')) {
    return new UsageError(`Not allowed to listen on ${host}:${port}.`, 'Use a port above 1023, e.g. --port 4010.');
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new UsageError(`Cannot listen on host "${host}": no such local address.`, 'Try --host 127.0.0.1.');
  }
  // MakeDirError ("cannot create …") and node:fs errors carry the path they failed on.
  if (failure?.path !== undefined || code === 'ERR_SQLITE_ERROR') {
    return new UsageError(`Cannot use the data dir ${dataDir}: ${failure?.message}.`, 'Pick another with --data-dir.');
  }
  return error;
}
