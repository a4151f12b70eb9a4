/**
 * One handler per operation of the contract table, keyed by endpoint key, one file per resource
 * group. app.ts generates the routes from ENDPOINTS and runs these (./types.ts says what it has
 * checked and resolved before a handler runs).
 */
import { ATTACHMENT_HANDLERS } from './attachments.js';
import { LOAN_REQUEST_HANDLERS } from './loan-requests.js';
import type { HandlerMap } from './types.js';
import { USER_HANDLERS } from './users.js';

export const HANDLERS: HandlerMap = { ...USER_HANDLERS, ...LOAN_REQUEST_HANDLERS, ...ATTACHMENT_HANDLERS };
