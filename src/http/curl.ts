/** `--dry-run`: a request as a curl command a user can read, or run after putting their key in. */

export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_\-./:=@%+,]+$/.test(value)) return value;
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

export function toCurl(method: string, url: string, headers: Record<string, string>, body: string | undefined): string {
  const parts = ['curl', '-X', method, shellQuote(url)];
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'user-agent') continue;
    parts.push('-H', shellQuote(`${headerName(name)}: ${value}`));
  }
  if (body !== undefined) parts.push('--data', shellQuote(body));
  return parts.join(' ');
}

function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}
