/** The loan product a command works on: `--product` > LOANCTL_PRODUCT_ID > the profile's product id. */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { parseId } from '../../input/values.js';
import { SANDBOX_PROFILE } from './sandbox-listening.js';

export interface ProductOption {
  /** `--product`, as typed. */
  product?: string | undefined;
}

/** `--product`, else LOANCTL_PRODUCT_ID, else the profile's product id; missing everywhere → exit 2. */
export async function resolveProduct(options: ProductOption, deps: Deps): Promise<number> {
  const productId = await findProduct(options, deps);
  if (productId !== undefined) return productId;
  throw await missingProduct(deps);
}

/** `--product`, else LOANCTL_PRODUCT_ID, else the profile's product id; undefined when none. */
export async function findProduct(options: ProductOption, deps: Deps): Promise<number | undefined> {
  if (options.product !== undefined) return parseId(options.product, '--product');
  return (await deps.settings()).productId;
}

/**
 * The exit-2 error for a missing product id, naming `others` too (flags the command also lacks),
 * so a script learns everything to add from one run. With no profile at all and no API given by
 * flag or environment, this is likely a newcomer fresh from the demo: the hint offers the sandbox.
 */
export async function missingProduct(deps: Deps, others: readonly string[] = []): Promise<UsageError> {
  const settings = await deps.settings();
  const apiGiven = settings.baseUrlSource === 'flag' || settings.baseUrlSource === 'env';
  const newcomer = !apiGiven && (await deps.config()).names().length === 0;
  const sandbox = newcomer
    ? `; or try the local sandbox: loanctl sandbox start (then, in another terminal, loanctl --profile ${SANDBOX_PROFILE} loan new)`
    : '';
  return new UsageError(
    `Missing ${['--product', ...others].join(', ')}: loan commands need a loan product id.`,
    `Pass --product N, set LOANCTL_PRODUCT_ID, or give the profile one: loanctl profile add NAME --base-url URL --product-id N${sandbox}`,
  );
}
