import type { ApiResult } from '../../src/http/api-client.js';

/** A successful reply as the HTTP client returns it, for fake API clients in unit tests. */
export function apiResult(data: unknown, options: { status?: 'success' | 'exists'; data1?: unknown } = {}): ApiResult {
  const { status = 'success', data1 = null } = options;
  const envelope = { status, message: 'ok', data, data1 };
  return {
    status,
    message: 'ok',
    data,
    data1,
    payload: data ?? data1,
    envelope,
    rawBody: JSON.stringify(envelope),
    httpStatus: 200,
  };
}
