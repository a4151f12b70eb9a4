/** `--dry-run`: a request as a curl command a user can read, or run after putting their key in. */
import { shellQuote } from '../shell-quote.js';

export function toCurl(method: string, url: string, headers: Record<string, string>, body: string | undefined): string {
  const parts = ['curl', '-X', method, shellQuote(url)];
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'user-agent') continue;
    parts.push('-H', shellQuote(`${headerName(name)}: ${value}`));
  }
  if (body !== undefined) parts.push('--data', shellQuote(maskSecrets(body)));
  return parts.join(' ');
}

function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

/** Fields whose values never reach the terminal: they were read from stdin or a masked prompt. */
const SECRET_FIELDS = new Set(['password']);

/** The JSON body with every secret field's value replaced by `***`, at any depth. */
function maskSecrets(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  return JSON.stringify(parsed, (name, value) => (SECRET_FIELDS.has(name) ? '***' : value));
}
