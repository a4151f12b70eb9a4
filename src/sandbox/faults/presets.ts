/**
 * Ready-made faults (`sandbox faults add --preset NAME`): the failure replies the spec documents,
 * exactly as the real service sends them, and the replies of what stands in front of it.
 */
import { operation } from '../../contract/operations.js';
import { MESSAGES } from '../envelope.js';
import type { NewFault } from './store.js';

export type PresetFault = Pick<NewFault, 'method' | 'path' | 'http' | 'envelope' | 'message'>;

export const PRESETS: Record<string, { description: string; fault: PresetFault }> = {
  'tokenize-500': {
    description: 'tokenize_linker\'s 500 (spec 4.8): "Something went wrong. Please try again…"',
    fault: {
      method: 'POST',
      path: '/api/v1/loan_request/*/tokenize_*',
      http: 500,
      envelope: 'error',
      message: `${MESSAGES.somethingWentWrong}: the linker could not be tokenized`,
    },
  },
  'employment-500': {
    description: "employment's 500 (spec 4.17): the entry was already added and can only be updated",
    fault: {
      method: 'POST',
      path: '/api/v1/loan_request/*/employment',
      http: 500,
      envelope: 'error',
      message: operation('addEmployment').errors.alreadyAdded.message,
    },
  },
  'error-200': {
    description: 'an error envelope with HTTP 200, as the real service sends for some failures',
    fault: { method: null, path: '/api/**', http: 200, envelope: 'error', message: MESSAGES.somethingWentWrong },
  },
  'gateway-503': {
    description: 'a bare 503 from a gateway in front of the API (no envelope)',
    fault: { method: null, path: '/api/**', http: 503, envelope: null, message: null },
  },
};

/** The message of a fault's envelope when none was given. */
export function defaultMessage(http: number): string {
  if (http === 429) return 'Too many requests. Please slow down and try again';
  if (http === 503) return 'The service is temporarily unavailable. Please try again';
  return MESSAGES.somethingWentWrong;
}
