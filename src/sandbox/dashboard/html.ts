/**
 * HTML built by a tagged template that escapes every interpolated value: a borrower named
 * `<script>` renders as text. Only another `html` result (or `raw`, for the few constant strings
 * of this folder) goes in unescaped.
 */

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(value);
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  return new Html(strings.reduce((out, part, index) => out + render(values[index - 1]) + part));
}

/** A constant of this folder's own (never a value from a request or the database). */
export function raw(text: string): Html {
  return new Html(text);
}

/** A query string from the given values, dropping empty ones (for paging links that keep filters). */
export function queryString(values: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
