/**
 * Phones a spreadsheet lost the leading 0 of: Excel reads `08031535642` as a number and writes
 * `8031535642`. In a users file such a phone is read with its 0 restored, and the run says once,
 * at its end, how many rows were read so; `--strict` leaves them as written, so `user create`'s
 * own check refuses them, naming the number they likely were (docs/guide.md, "Spreadsheets").
 */
import { withLostZero } from '../contract/vocabulary.js';

export interface PhoneRepair {
  /** Restores the 0 of the row's phone where it lost one (not under `--strict`). */
  repair(fields: Record<string, unknown>): void;
  /** The one warning for the run, or undefined when no row needed it. */
  warning(): string | undefined;
}

export function phoneRepair(strict: boolean): PhoneRepair {
  let repaired = 0;
  return {
    repair(fields) {
      const phone = fields.phone;
      if (strict || (typeof phone !== 'string' && typeof phone !== 'number')) return;
      const restored = withLostZero(String(phone));
      if (restored === undefined) return;
      fields.phone = restored;
      repaired += 1;
    },
    warning() {
      if (repaired === 0) return undefined;
      const rows = repaired === 1 ? '1 row had' : `${repaired} rows had`;
      return `${rows} a 10-digit phone without its leading 0 (as a spreadsheet drops it), read as 0 and those digits; --strict refuses such rows.`;
    },
  };
}
