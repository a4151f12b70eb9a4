/** `loanctl sandbox proxy`: forward to an upstream server, checking against the contract, until SIGINT or SIGTERM. */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { parseDuration } from '../../input/duration.js';
import { makeDir } from '../../make-dir.js';
import { openOutcome } from '../../output/render.js';
import { claimRunFile, releaseRunFile, updateRunFile } from '../../sandbox/control/run-file.js';
import { isLoopback } from '../../sandbox/hosts.js';
import { dataDirFrom, defaultDataDir } from '../../sandbox/paths.js';
import { startProxy } from '../../sandbox/proxy/server.js';
import { sandboxErrorLine } from '../common/sandbox-error-line.js';
import { parseWholeNumber, waitForStop } from './run-helpers.js';

export interface SandboxProxyOptions {
  upstream: string;
  host?: string;
  port?: string;
  strict?: boolean;
  timeout?: string;
  dataDir?: string;
  /** For tests: stop when this aborts, instead of (as well as) on SIGINT/SIGTERM. */
  stopSignal?: AbortSignal;
}

export async function runSandboxProxy(options: SandboxProxyOptions, deps: Deps): Promise<void> {
  const upstream = upstreamUrl(options.upstream);
  const host = (options.host ?? '127.0.0.1').trim();
  const port = parseWholeNumber(options.port ?? '4011', '--port', 0, 65_535);
  const timeoutMs = parseDuration(options.timeout ?? '30s', '--timeout');
  if (options.dataDir !== undefined && options.dataDir.trim() === '')
    throw new UsageError('--data-dir must not be empty.');
  const dataDir =
    options.dataDir === undefined ? defaultDataDir(deps.env, 'proxy') : dataDirFrom(options.dataDir, deps.env);
  const json = deps.globals?.output === 'json';
  const output = await openOutcome(
    {
      io: deps.io,
      env: deps.env,
      globals: { ...deps.globals, output: json ? 'ndjson' : (deps.globals?.output ?? 'table') },
    },
    ['url', 'upstream', 'strict', 'data_dir'],
  );

  makeDir(dataDir);
  const startedAt = new Date().toISOString();
  const owner = claimRunFile(dataDir, { pid: process.pid, started_at: startedAt });
  if (owner) {
    throw new UsageError(
      `A sandbox or proxy already runs on ${dataDir} (pid ${owner.pid}).`,
      'Stop it, or give this proxy another --data-dir.',
    );
  }
  try {
    const proxy = await startProxy({
      upstream,
      host,
      port,
      dataDir,
      strict: options.strict === true,
      timeoutMs,
      onError: (error) => deps.io.stderr.write(sandboxErrorLine(error, deps)),
    });
    updateRunFile(dataDir, { pid: process.pid, started_at: startedAt, url: proxy.url, host, port });
    await output.print(
      { url: proxy.url, upstream: upstream.origin, strict: options.strict === true, data_dir: dataDir },
      [
        `Proxy listening on ${proxy.url}, forwarding to ${upstream.origin}${options.strict ? ' (strict: a reply that breaks the contract is answered 502)' : ''}`,
        `  request log: loanctl sandbox logs --violations --data-dir ${JSON.stringify(dataDir)}`,
      ],
    );
    await waitForStop(options.stopSignal);
    await proxy.close();
    deps.io.stderr.write(`Proxy stopped: ${proxy.tally.summary()}\n`);
  } finally {
    releaseRunFile(dataDir);
  }
}

/** The upstream as a URL: http(s) only, and plain http only to loopback (the key travels in it). */
function upstreamUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(
      `--upstream "${text}" is not a URL.`,
      "Give the server's base URL, e.g. --upstream https://api.lender.example",
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`--upstream must be an http(s) URL; got "${url.protocol}".`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname.replace(/^\[|\]$/g, ''))) {
    throw new UsageError(
      `--upstream ${url.origin} is plain http to another machine: the callers' keys would cross the network unencrypted.`,
      'Use its https:// URL (plain http is for loopback only).',
    );
  }
  return url;
}
