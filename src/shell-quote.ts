/**
 * A word as a POSIX shell reads it back unchanged: as it is when it is plain, else in single
 * quotes. For the commands loanctl prints for a person to run (`--dry-run`'s curl, a write's
 * check command), so it sits below both the contract and the HTTP client.
 */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_\-./:=@%+,]+$/.test(value)) return value;
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
