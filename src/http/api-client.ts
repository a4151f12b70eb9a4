/**
 * What the rest of loanctl sees of the API client (./client.ts builds it): one typed call per
 * operation of the contract, any request for the `api` command, and close.
 */

import type { Settings } from '../config/settings.js';
import type { ReplyData } from '../contract/endpoints.js';
import type { BodyKey, BodyOf } from '../contract/fields.js';
import type { HttpMethod, OperationKey, PathParamsOf, QueryOf } from '../contract/operations.js';
import type { ApiResult } from './reply.js';

export type { ApiResult } from './reply.js';

type QueryValue = string | number | boolean | undefined | null;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

/**
 * What one operation of the contract is called with, typed from its description: the path
 * parameters it names, its own query parameters, and its body as its fields say
 * (src/contract/fields.ts `BodyOf`). Every value is checked again with the operation's schemas
 * before anything is sent, but a body built by buildOperationBody (src/input/body.ts): that one was
 * checked with the same schema, and is frozen.
 */
export interface CallOptions<K extends OperationKey = OperationKey> {
  /** Path parameters by name, as the operation names them: `{ id: 42 }`, `{ user_id: 7 }`. */
  params?: PathParamsOf<K>;
  /** Query parameters other than product-id; undefined values are left out. */
  query?: { [N in keyof QueryOf<K>]?: QueryValue };
  /** The JSON body, as the operation's fields say (validated again before anything is sent, see above). */
  body?: BodyOf<K & BodyKey>;
  /** Overrides the settings' product id (e.g. a command's `--product`). */
  productId?: number | string | undefined;
}

interface RequestOptions {
  query?: Query;
  body?: unknown;
}

export interface ApiClient {
  readonly settings: Settings;
  /** One operation of the contract table, validated, with product-id added where it applies. */
  call<K extends OperationKey>(key: K, options?: CallOptions<K>): Promise<ApiResult<ReplyData<K>>>;
  /** Any method and path (the `api` command): same auth, retries and reply mapping. */
  request(method: HttpMethod, path: string, options?: RequestOptions): Promise<ApiResult>;
  /**
   * Closes the pool. By default it lets requests still out finish; with `abort` (Ctrl-C) it drops
   * them at once and retries nothing more, so the process does not wait out `--timeout` for a
   * reply nobody will read.
   */
  close(options?: { abort?: boolean }): Promise<void>;
}
