/** The `Examples:` block shown after a command's help (commander's addHelpText('after', …)). */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

/** `--product`, as every loan verb declares it. */
export const PRODUCT_HELP = "loan product id (default: $LOANCTL_PRODUCT_ID, else the profile's product id)";

/** `--data`, as every verb that sends a body declares it. */
export const DATA_HELP = 'the request body as JSON, @file.json, or - for stdin; flags override its fields';

/** The help of a path parameter's argument, by the parameter's name. */
export const PATH_PARAM_HELP: Readonly<Record<string, string>> = { id: 'loan request id', user_id: 'user id' };

/** How an error about a path parameter's value names it. */
export const PATH_PARAM_SOURCES: Readonly<Record<string, string>> = {
  id: 'The loan request ID',
  user_id: 'The user ID',
};

/** `-y, --yes`, as every verb that asks first declares it. */
export const YES_HELP = 'do not ask for confirmation (needed when not on a terminal)';

/** Where the sandbox keeps its data when no `--data-dir` is given (src/sandbox/paths.ts). */
export const DEFAULT_DATA_DIR = '$XDG_DATA_HOME/loanctl/sandbox';

export const DATA_DIR_HELP = `the sandbox data dir (default: ${DEFAULT_DATA_DIR})`;
