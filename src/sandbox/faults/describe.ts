/** A fault in words: what `sandbox faults add` and `faults list` print, and completion shows. */
import type { FaultRow } from './store.js';

/** One line: `#2 POST /api/v1/user → 500 (error envelope), 20 % (seed 7), 1 of 3 times`. */
export function describeFault(fault: FaultRow): string {
  return `#${fault.id} ${whatFaultDoes(fault)}`;
}

/** describeFault without the id: what shell completion shows beside a fault's id. */
export function whatFaultDoes(fault: FaultRow): string {
  const answer =
    fault.http === null
      ? 'served as usual'
      : `${fault.http} ${fault.envelope === 'error' ? `error envelope "${fault.message ?? 'default message'}"` : '(bare, no envelope)'}`;
  const parts = [`${fault.method ?? 'any method'} ${fault.path} → `];
  if (fault.latency_ms > 0) parts.push(`after ${fault.latency_ms} ms, `);
  parts.push(answer);
  if (fault.probability < 1)
    parts.push(`, ${Math.round(fault.probability * 1000) / 10} %${fault.seed === null ? '' : ` (seed ${fault.seed})`}`);
  parts.push(fault.times === null ? `; fired ${fault.fired} times` : `; fired ${fault.fired} of ${fault.times} times`);
  if (fault.preset) parts.push(` [${fault.preset}]`);
  return parts.join('');
}
