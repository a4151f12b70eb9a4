/**
 * How typed text becomes the value a field sends, for each field kind of the contract
 * (src/contract/fields.ts). Flags, `--data` strings, bulk cells and the guided flow's answers all
 * go through these, so `0801…`, `50,000` or `weekly` mean the same everywhere.
 */
import type { FieldDef, FieldKind } from '../contract/fields.js';
import { normalisePhone } from '../contract/vocabulary.js';
import {
  parseAmount,
  parseBoolean,
  parseDate,
  parseEmail,
  parseFrequency,
  parseHttpUrl,
  parseId,
  parseNonNegativeNumber,
  parsePhone,
  parsePositiveInt,
  parseRateType,
  parseTenuredIn,
  parseText,
  parseWholeNumber,
  type Source,
} from './values.js';

export type Parse = (raw: string, source: Source) => unknown;

const PARSERS: Record<FieldKind, Parse> = {
  text: parseText,
  // A manager's phone is any text to the API; a Nigerian number is sent in the +234 form.
  'contact-phone': (raw, source) => normalisePhone(raw) ?? parseText(raw, source),
  // A password is sent exactly as typed: spaces may be part of it.
  secret: (raw) => raw,
  email: parseEmail,
  phone: parsePhone,
  url: parseHttpUrl,
  date: parseDate,
  money: parseAmount,
  rate: parseNonNegativeNumber,
  count: parsePositiveInt,
  whole: parseWholeNumber,
  // `number_of_employees` is digits as text in the request (spec 2.6).
  'whole-text': (raw, source) => String(parseWholeNumber(raw, source)),
  'org-id': parseId,
  bool: parseBoolean,
  'tenured-in': parseTenuredIn,
  'rate-type': parseRateType,
  frequency: parseFrequency,
};

/** The parser of a field's kind. */
export function parserOf(field: Pick<FieldDef, 'kind'>): Parse {
  return PARSERS[field.kind];
}
