/**
 * The run of a verb made from a contract row (./operation-verb.ts): the path parameters and
 * `--product` checked, the body built from `--data` and the field flags and checked with the
 * schema built from the same fields, one call, an optional notice, and the reply printed as the
 * row's `reply` says. Nothing is sent until every check passed.
 */
import { bodySchema } from '../../contract/field-schemas.js';
import { type BodyKey, optionKeyOf } from '../../contract/fields.js';
import {
  carriesBody,
  type OperationDef,
  type OperationKey,
  operation,
  replyPayloadShape,
  replyRecord,
} from '../../contract/operations.js';
import type { Deps } from '../../deps.js';
import type { ApiResult, CallOptions } from '../../http/api-client.js';
import { buildBody, buildOperationBody } from '../../input/body.js';
import { parseId } from '../../input/values.js';
import { notice } from '../../output/notice.js';
import { openOutput } from '../../output/output.js';
import { readData } from './data-option.js';
import { fieldInputs } from './field-options.js';
import { PATH_PARAM_SOURCES } from './help.js';
import { resolveProduct } from './product.js';

/** What a verb that says more than its row adds to the run. */
export interface VerbExtras {
  /** e.g. `bank details`: the notice `Added bank details to loan request 172.` after success. */
  what?: string;
  /**
   * A body field with a default that needs a lookup (the business's org id): used when neither a
   * flag nor `--data` gives it. Everything else is checked first (with `placeholder` in its
   * place), so a mistake is reported before the lookup is sent.
   */
  lookupDefault?: { key: string; placeholder: unknown; resolve: () => Promise<unknown> };
}

export interface VerbInput {
  /** The path parameters as typed, in the row's order. */
  values: readonly string[];
  /** Commander's options: `--product`, `--data`, the query and field flags. */
  options: Record<string, string | boolean | undefined>;
}

export async function runOperation(
  key: OperationKey,
  input: VerbInput,
  deps: Deps,
  extras: VerbExtras = {},
): Promise<ApiResult> {
  const row = operation(key) as OperationDef;
  const params = Object.fromEntries(
    row.pathParams.map((param, index) => [
      param,
      parseId(input.values[index] ?? '', PATH_PARAM_SOURCES[param] ?? param),
    ]),
  );
  const shape = replyPayloadShape(key);
  const scalar = replyRecord(shape) === undefined;
  const output = await openOutput(deps, key, scalar ? { scalar: key } : {});
  const product = input.options.product;
  const productId = row.productId
    ? await resolveProduct({ product: typeof product === 'string' ? product : undefined }, deps)
    : undefined;
  // A fixed parameter (`action=approve`) is sent as the row says; the others come from their flags.
  const query = Object.fromEntries(
    Object.entries(row.query).map(([name, param]) => [
      name,
      param.type === 'literal' ? param.value : input.options[optionKeyOf(`--${name}`)],
    ]),
  );
  const body = carriesBody(key) ? await bodyOf(key, input, deps, extras) : undefined;
  const api = await deps.api();
  // The row's own types say which params, query and body this key takes; a key chosen at run time
  // is checked against them by the client's schemas instead (the same descriptions).
  const result = await api.call(key, { params, productId, query, body } as CallOptions);
  if (extras.what !== undefined) notice(deps, `Added ${extras.what} to loan request ${params.id}.`);
  if (shape === 'none') return result;
  if (scalar) await output.scalar(String(result.payload ?? ''), result.rawBody);
  else await output.print(result.payload ?? (shape.endsWith('[]') ? [] : null), result.rawBody);
  return result;
}

async function bodyOf(key: BodyKey, input: VerbInput, deps: Deps, extras: VerbExtras): Promise<unknown> {
  const fields = fieldInputs(key, input.options);
  const dataFlag = input.options.data;
  let data = await readData({ data: typeof dataFlag === 'string' ? dataFlag : undefined }, deps);
  const lookup = extras.lookupDefault;
  if (
    lookup &&
    data?.[lookup.key] === undefined &&
    fields.find((field) => field.key === lookup.key)?.value === undefined
  ) {
    buildBody(bodySchema(key), fields, { ...data, [lookup.key]: lookup.placeholder });
    data = { ...data, [lookup.key]: await lookup.resolve() };
  }
  const { body, ignored } = buildOperationBody(key, fields, data);
  const what = extras.what ?? 'the request body';
  for (const name of ignored) notice(deps, `loanctl: ignoring "${name}" in --data: ${what} has no such field.`);
  return body;
}
