/**
 * The verbs that attach information to a loan request (bank details, guarantor, employment,
 * document, business): ID and product, `--data` merged with the flags the contract's field table
 * gives the operation, checked with the schema built from the same table, one call, a notice, the
 * record printed as the operation's reply shape says.
 */
import type { Deps } from '../../deps.js';
import type { ApiResult } from '../../http/api-client.js';
import { buildBody, buildOperationBody } from '../../input/body.js';
import { openOutput } from '../../output/output.js';
import { type FieldOptions, fieldInputs } from '../common/field-options.js';
import { type DataOption, type LoanIdOptions, loanId, notice, readData, resolveProduct } from './common.js';

export type AttachKey = 'addBankDetails' | 'addEmployment' | 'addBusinessInfo' | 'addGuarantor' | 'uploadDocument';

export type AttachOptions<K extends AttachKey> = LoanIdOptions & DataOption & FieldOptions<K>;

export interface AttachSpec<K extends AttachKey> {
  key: K;
  /** e.g. `bank details` — for notices. */
  what: string;
  /**
   * A field with a default that needs a lookup (the business's org id): used when neither a flag
   * nor `--data` gives it. Everything else is checked first (with `placeholder` in its place), so
   * a mistake is reported before the lookup is sent.
   */
  lookupDefault?: { key: string; placeholder: unknown; resolve: () => Promise<unknown> };
}

export async function runAttach<K extends AttachKey>(
  options: AttachOptions<K>,
  deps: Deps,
  spec: AttachSpec<K>,
): Promise<ApiResult> {
  const id = loanId(options.id);
  const output = await openOutput(deps, spec.key);
  const productId = await resolveProduct(options, deps);
  const fields = fieldInputs(spec.key, options);
  let data = await readData(options, deps);
  const lookup = spec.lookupDefault;
  if (
    lookup &&
    data?.[lookup.key] === undefined &&
    fields.find((field) => field.key === lookup.key)?.value === undefined
  ) {
    buildBody((await import('../../contract/field-schemas.js')).bodySchema(spec.key), fields, {
      ...data,
      [lookup.key]: lookup.placeholder,
    });
    data = { ...data, [lookup.key]: await lookup.resolve() };
  }
  const { body, ignored } = buildOperationBody(spec.key, fields, data);
  for (const key of ignored) notice(deps, `loanctl: ignoring "${key}" in --data: ${spec.what} has no such field.`);
  const api = await deps.api();
  // A named object, not a literal: TypeScript cannot list the path parameters of a generic key
  // for its excess-property check, but does check `{ id }` against them.
  const params = { id };
  const result = await api.call(spec.key, { params, productId, body });
  notice(deps, `Added ${spec.what} to loan request ${id}.`);
  await output.print(result.payload, result.rawBody);
  return result;
}
