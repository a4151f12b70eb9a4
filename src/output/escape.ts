/**
 * Terminal-safe text, apart from ./format.ts so that the CSV writer and `--fields` checks, on every
 * command's path, load it without the number formatters.
 */

/**
 * Makes text safe for a terminal: C0/C1 control characters (ESC, CR, BEL…, and newlines, which
 * would break a row) and the bidirectional overrides become visible escapes, e.g. `\x1b`, `\n`.
 */
export function escapeControl(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (ch) => {
    switch (ch) {
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\t':
        return '\\t';
      default: {
        const code = ch.charCodeAt(0);
        return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
      }
    }
  });
}
