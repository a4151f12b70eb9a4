/**
 * The common shape of the verbs that attach information to a loan request (bank details,
 * guarantor, employment, document, business): ID and product, `--data` merged with flags,
 * checked with the contract's schema, one call, a notice, the record printed.
 */
import type { z } from 'zod';
import type { EndpointKey } from '../../contract/endpoints.js';
import type { Deps } from '../../deps.js';
import type { ApiResult } from '../../http/api-client.js';
import { buildBody, type FieldSpec } from '../../input/body.js';
import { checkFieldsBeforeSending } from '../../input/check-fields.js';
import type { ResourceKind } from '../../output/columns.js';
import { printRecord } from '../../output/print.js';
import { type DataOption, type LoanIdOptions, loanId, notice, readData, resolveProduct } from './common.js';

export interface AttachSpec {
  endpoint: EndpointKey;
  schema: z.ZodType;
  /** e.g. `bank details` — for notices. */
  what: string;
  kind: ResourceKind;
  fields: FieldSpec[];
  /**
   * A field with a default that needs a lookup (the business's org id): used when neither a flag
   * nor `--data` gives it. Everything else is checked first (with `placeholder` in its place), so
   * a mistake is reported before the lookup is sent.
   */
  lookupDefault?: { key: string; placeholder: unknown; resolve: () => Promise<unknown> };
}

export async function runAttach(options: LoanIdOptions & DataOption, deps: Deps, spec: AttachSpec): Promise<ApiResult> {
  const id = loanId(options.id);
  checkFieldsBeforeSending(deps, spec.kind);
  const productId = await resolveProduct(options, deps);
  let data = await readData(options, deps);
  const lookup = spec.lookupDefault;
  if (
    lookup &&
    data?.[lookup.key] === undefined &&
    spec.fields.find((field) => field.key === lookup.key)?.value === undefined
  ) {
    buildBody(spec.schema, spec.fields, { ...data, [lookup.key]: lookup.placeholder });
    data = { ...data, [lookup.key]: await lookup.resolve() };
  }
  const { body, ignored } = buildBody(spec.schema, spec.fields, data);
  for (const key of ignored) notice(deps, `loanctl: ignoring "${key}" in --data: ${spec.what} has no such field.`);
  const api = await deps.api();
  const result = await api.call(spec.endpoint, { params: { id }, productId, body } as never);
  notice(deps, `Added ${spec.what} to loan request ${id}.`);
  await printRecord(deps, result, result.payload, spec.kind);
  return result;
}
