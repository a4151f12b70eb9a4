/**
 * What the loan verbs share: the product id (`--product` > LOANCTL_PRODUCT_ID > profile), the
 * loan request id argument, confirmation (`--yes`), and `--data`.
 */
import type { Deps } from '../../deps.js';
import { parseId } from '../../input/values.js';
import { confirmAction } from '../common/confirm.js';
import { PATH_PARAM_SOURCES } from '../common/help.js';
import type { ProductOption } from '../common/product.js';

export { notice } from '../../output/notice.js';
// Shared with the user verbs and the verbs made from contract rows; re-exported so the loan verbs
// keep one place to import from.
export { type DataOption, readData } from '../common/data-option.js';
export { findProduct, missingProduct, type ProductOption, resolveProduct } from '../common/product.js';

export interface LoanIdOptions extends ProductOption {
  /** The ID argument, as typed. */
  id: string;
}

/** The ID argument of a loan verb. */
export function loanId(raw: string): number {
  return parseId(raw, PATH_PARAM_SOURCES.id as string);
}

/**
 * For `loan approve` and `loan delete` (the core's confirmAction): `--yes` goes ahead; on a
 * terminal the operator is asked (declining → exit 130); elsewhere a missing `--yes` is exit 2.
 */
export async function confirmOrYes(
  deps: Deps,
  yes: boolean | undefined,
  question: string,
  example: string,
): Promise<void> {
  await confirmAction(deps, { question, yes, example });
}
