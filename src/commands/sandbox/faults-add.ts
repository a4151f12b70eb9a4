/** `loanctl sandbox faults add`: a fault a sandbox on this data dir injects, from its next request on. */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { parseDuration } from '../../input/duration.js';
import { openOutcome } from '../../output/render.js';
import { withFaults } from '../../sandbox/faults/admin.js';
import { describeFault } from '../../sandbox/faults/describe.js';
import { PRESETS, type PresetFault } from '../../sandbox/faults/presets.js';
import { FAULT_FIELDS, type NewFault } from '../../sandbox/faults/store.js';
import { parseWholeNumber, resolveDataDir } from './run-helpers.js';

export interface SandboxFaultsAddOptions {
  dataDir?: string;
  preset?: string;
  path?: string;
  method?: string;
  status?: string;
  envelope?: string;
  message?: string;
  latency?: string;
  probability?: string;
  seed?: string;
  times?: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const LONGEST_LATENCY_MS = 300_000;

export async function runSandboxFaultsAdd(options: SandboxFaultsAddOptions, deps: Deps): Promise<void> {
  const dataDir = resolveDataDir(options.dataDir, deps);
  const fault = faultFrom(options, deps);
  const output = await openOutcome(deps, FAULT_FIELDS);
  const added = withFaults(dataDir, (store) => {
    const id = store.add(fault);
    return store.list().find((row) => row.id === id);
  });
  if (!added) return;
  await output.print(added, [`Added fault ${describeFault(added)}`]);
  deps.io.stderr.write(
    `A running sandbox applies it from its next request. Remove it with: loanctl sandbox faults clear ${added.id}\n`,
  );
}

function faultFrom(options: SandboxFaultsAddOptions, deps: Deps): NewFault {
  const preset = presetFrom(options.preset);
  const path = options.path ?? preset?.path;
  if (path === undefined || path.trim() === '') {
    throw new UsageError(
      '--path is required (or --preset).',
      'e.g. --path "/api/v1/loan_request/*" (* stays in one segment, ** spans them).',
    );
  }
  if (!path.startsWith('/')) throw new UsageError(`--path must start with "/"; got "${path}".`);
  const method = options.method === undefined ? (preset?.method ?? null) : options.method.trim().toUpperCase();
  if (method !== null && !METHODS.includes(method)) {
    throw new UsageError(`--method must be one of ${METHODS.join(', ')}; got "${options.method}".`);
  }
  const http =
    options.status === undefined ? (preset?.http ?? null) : parseWholeNumber(options.status, '--status', 200, 599);
  const envelope = envelopeFrom(options.envelope, preset);
  const latency_ms = options.latency === undefined ? 0 : parseDuration(options.latency, '--latency');
  checkAnswer(http, envelope, latency_ms, options.message);
  return {
    method,
    path,
    http,
    envelope,
    message: options.message ?? (options.status === undefined ? (preset?.message ?? null) : null),
    latency_ms,
    probability: options.probability === undefined ? 1 : parseProbability(options.probability),
    seed: options.seed === undefined ? null : parseWholeNumber(options.seed, '--seed', 0, 2 ** 31 - 1),
    times: options.times === undefined ? null : parseWholeNumber(options.times, '--times', 1, 1_000_000_000),
    preset: options.preset ?? null,
    created_at: deps.now().toISOString(),
  };
}

function presetFrom(name: string | undefined): PresetFault | undefined {
  if (name === undefined) return undefined;
  const preset = PRESETS[name];
  if (!preset) {
    throw new UsageError(`--preset: no preset "${name}".`, `Use one of: ${Object.keys(PRESETS).join(', ')}.`);
  }
  return preset.fault;
}

function envelopeFrom(value: string | undefined, preset: PresetFault | undefined): 'error' | null {
  if (value === undefined) return preset?.envelope ?? null;
  if (value === 'error') return 'error';
  if (value === 'none') return null;
  throw new UsageError(`--envelope must be "error" or "none"; got "${value}".`);
}

function checkAnswer(http: number | null, envelope: 'error' | null, latencyMs: number, message: string | undefined) {
  if (http === null && latencyMs === 0) {
    throw new UsageError('A fault needs --status, --latency or both.', 'e.g. --status 503, or --latency 2s.');
  }
  if (http !== null && http < 300 && envelope !== 'error') {
    throw new UsageError(`--status ${http} needs --envelope error: a fault answers with a failure.`);
  }
  if (message !== undefined && envelope !== 'error') throw new UsageError('--message needs --envelope error.');
  if (latencyMs > LONGEST_LATENCY_MS) throw new UsageError('--latency must be at most 5m.');
}

function parseProbability(text: string): number {
  const value = /^\s*(0(\.\d+)?|1(\.0+)?|\.\d+)\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!(value > 0 && value <= 1)) {
    throw new UsageError(`--probability must be a number above 0 and at most 1, e.g. 0.2; got "${text}".`);
  }
  return value;
}
