/**
 * The last approval terms `loan review` used for each product, offered as the next loan's
 * defaults. One small JSON file in the state dir (src/config/state-dir.ts): `{ "version": 1, "products":
 * { "12": { approved_amount, rate, … } } }`, keyed by the API key's organisation too, so a
 * profile's terms are never offered under another's.
 *
 * Read back checked: a regular file (src/config/locked-write.ts), JSON of that shape, each product's
 * terms passing the contract's schema of an approval. One that does not stops the run with one
 * line naming the file (exit 2) — defaults nobody can vouch for are never offered.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Env } from '../../basics.js';
import { readRegularFile, writeFileAtomic } from '../../config/locked-write.js';
import { stateDir } from '../../config/state-dir.js';
import { bodySchema } from '../../contract/field-schemas.js';
import type { BodyOf } from '../../contract/fields.js';
import { UsageError } from '../../errors.js';
import { makeDir } from '../../make-dir.js';

export type Terms = BodyOf<'approveLoanRequest'>;

const WHAT = 'the last approval terms';

export class LastTerms {
  private constructor(
    readonly path: string,
    private readonly products: Record<string, unknown>,
    private readonly organisation: string,
  ) {}

  /** Reads the file (none yet: no defaults); one that cannot be trusted is exit 2. */
  static open(env: Env, apiKey: string): LastTerms {
    const path = join(stateDir(env), 'approval-terms.json');
    const organisation = createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
    const text = readRegularFile(path, WHAT);
    if (text === undefined) return new LastTerms(path, {}, organisation);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw untrusted(path, 'it is not JSON');
    }
    const products = (parsed as { products?: unknown } | null)?.products;
    if ((parsed as { version?: unknown } | null)?.version !== 1 || typeof products !== 'object' || products === null) {
      throw untrusted(path, 'it is not a terms file of this loanctl');
    }
    for (const [key, terms] of Object.entries(products)) {
      if (!bodySchema('approveLoanRequest').safeParse(terms).success) {
        throw untrusted(path, `the terms of ${key} are not approval terms`);
      }
    }
    return new LastTerms(path, products as Record<string, unknown>, organisation);
  }

  /** The terms last used for `productId`, if any (checked when the file was read). */
  of(productId: number): Terms | undefined {
    return this.products[this.key(productId)] as Terms | undefined;
  }

  /** Remembers `terms` as the last used for `productId` (written at once, atomically). */
  remember(productId: number, terms: Terms): void {
    this.products[this.key(productId)] = terms;
    makeDir(join(this.path, '..'), 0o700);
    writeFileAtomic(this.path, `${JSON.stringify({ version: 1, products: this.products }, null, 2)}\n`, WHAT);
  }

  private key(productId: number): string {
    return `${this.organisation}/${productId}`;
  }
}

function untrusted(path: string, reason: string): UsageError {
  return new UsageError(
    `The file of ${WHAT} ${path} cannot be trusted: ${reason}. Nothing was sent.`,
    `Look at it, or delete it (rm ${path}): loan review then asks for terms without defaults.`,
  );
}
