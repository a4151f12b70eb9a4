/**
 * The shape of a sandbox handler (./index.ts lists them all; app.ts runs them). Before a handler
 * runs, app.ts has already: checked the API key, required `product-id` where the table says so,
 * validated query and body with the contract's schemas, and resolved the product, user and loan
 * request that the caller owns (anything else is no-access). `run` is synchronous and, for a
 * writing request, runs inside the request's one transaction.
 */
import type { z } from 'zod';
import type { Endpoint, EndpointKey } from '../../contract/endpoints.js';
import type { Outcome } from '../envelope.js';
import type { KeyOwner, LoanRequestRow, ProductRow, Repos, UserRow } from '../repos/index.js';

type Query<K extends EndpointKey> = z.infer<Endpoint<K>['query']>;
type Body<K extends EndpointKey> = Endpoint<K> extends { body: infer B extends z.ZodType } ? z.infer<B> : undefined;
type PathParam<K extends EndpointKey> = Endpoint<K>['pathParams'][number];

export type Context<K extends EndpointKey> = {
  repos: Repos;
  caller: KeyOwner;
  now: Date;
  /** `now` as the API writes a set timestamp. */
  stamp: string;
  query: Query<K>;
  body: Body<K>;
} & (Endpoint<K>['productId'] extends true ? { product: ProductRow } : unknown) &
  ('user_id' extends PathParam<K> ? { user: UserRow } : unknown) &
  ('id' extends PathParam<K> ? { loanRequest: LoanRequestRow } : unknown);

/** What the handler checks of a valid query/body beyond the schema: extra `field (problem)` parts. */
export interface Checkable<K extends EndpointKey> {
  query: Query<K>;
  body: Body<K>;
  caller: KeyOwner;
}

/** The query and body as they arrived (before the schemas), with the caller. */
interface RawInput {
  query: Record<string, unknown>;
  body: unknown;
  caller: KeyOwner;
}

export interface Handler<K extends EndpointKey> {
  /** Checks of the raw query made before the schemas run, answering in their own words. */
  precheck?: (rawQuery: Record<string, unknown>) => void;
  /** More `field (problem)` parts for the one 400 message, from the raw input: run with the schemas. */
  inspect?: (input: RawInput) => string[];
  /** More `field (problem)` parts, run once the schemas passed. */
  check?: (input: Checkable<K>) => string[];
  /** The operation itself: synchronous, inside the request's transaction. */
  run: (ctx: Context<K>) => Outcome;
}

/** The handlers of some of the operations (one resource group's file). */
export type HandlersOf<Keys extends EndpointKey> = { [K in Keys]: Handler<K> };
export type HandlerMap = HandlersOf<EndpointKey>;
