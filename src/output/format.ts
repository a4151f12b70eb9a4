/**
 * Cell formatting for humans (tables only; JSON, NDJSON and CSV carry values unchanged).
 */
import { isSetTimestamp, parseTimestamp } from '../contract/vocabulary.js';
import type { CellFormat } from './columns.js';
import { escapeControl } from './escape.js';

const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** `50000` → `50,000.00`. */
export function formatMoney(value: number): string {
  return MONEY.format(value);
}

/**
 * `0001-01-01T00:00:00Z` (unset) → `—`; else `2026-11-22 05:27 +01:00` in the local time zone (TZ),
 * the way an operator reads a date, with its zone (conventions.md), written `UTC` when it is UTC.
 */
export function formatTimestamp(value: string): string {
  if (!isSetTimestamp(value)) return '—';
  const date = parseTimestamp(value);
  if (date === undefined) return escapeControl(value);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())} ${zoneOf(date)}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The local zone's offset at that date (daylight saving moves it): `UTC`, `+01:00`, `-05:30`. */
function zoneOf(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  if (minutes === 0) return 'UTC';
  const sign = minutes > 0 ? '+' : '-';
  return `${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

export function formatCell(value: unknown, format: CellFormat | undefined): string {
  if (value === undefined || value === null) return '';
  const kind = format ?? guessFormat(value);
  switch (kind) {
    case 'money':
      return typeof value === 'number' ? formatMoney(value) : escapeControl(String(value));
    case 'number':
      return typeof value === 'number' ? NUMBER.format(value) : escapeControl(String(value));
    case 'timestamp':
      return typeof value === 'string' ? formatTimestamp(value) : escapeControl(String(value));
    case 'date':
      return typeof value === 'string' ? escapeControl(value.slice(0, 10)) : escapeControl(String(value));
    case 'bool':
      return typeof value === 'boolean' ? (value ? 'yes' : 'no') : escapeControl(String(value));
    default:
      return textOf(value);
  }
}

function guessFormat(value: unknown): CellFormat {
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string' && ISO.test(value)) return 'timestamp';
  return 'text';
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return escapeControl(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) {
    return escapeControl(value.join(', '));
  }
  return escapeControl(JSON.stringify(value));
}
