/**
 * What the rest of loanctl sees of the API client (./client.ts builds it): one typed call per
 * operation of the contract, any request for the `api` command, and close.
 */

import type { Settings } from '../config/settings.js';
import type { EndpointKey, ReplyData } from '../contract/endpoints.js';
import type { HttpMethod } from '../contract/operations.js';
import type { ApiResult } from './reply.js';

export type { ApiResult } from './reply.js';

export type QueryValue = string | number | boolean | undefined | null;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

export interface CallOptions {
  /** Path parameters by name, e.g. `{ id: 42 }` or `{ user_id: 7 }`. */
  params?: Record<string, string | number>;
  /** Query parameters other than product-id; undefined values are left out. */
  query?: Query;
  /** The JSON body; validated with the endpoint's schema before anything is sent. */
  body?: unknown;
  /** Overrides the settings' product id (e.g. a command's `--product`). */
  productId?: number | string;
}

export interface RequestOptions {
  query?: Query;
  body?: unknown;
}

export interface ApiClient {
  readonly settings: Settings;
  /** One operation of the contract table, validated, with product-id added where it applies. */
  call<K extends EndpointKey>(key: K, options?: CallOptions): Promise<ApiResult<ReplyData<K>>>;
  /** Any method and path (the `api` command): same auth, retries and reply mapping. */
  request(method: HttpMethod, path: string, options?: RequestOptions): Promise<ApiResult>;
  /**
   * Closes the pool. By default it lets requests still out finish; with `abort` (Ctrl-C) it drops
   * them at once and retries nothing more, so the process does not wait out `--timeout` for a
   * reply nobody will read.
   */
  close(options?: { abort?: boolean }): Promise<void>;
}
