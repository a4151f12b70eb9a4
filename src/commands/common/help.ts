/** The `Examples:` block shown after a command's help (commander's addHelpText('after', …)). */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}
