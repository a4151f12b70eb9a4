// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell code, where ${…} is the shell's
/**
 * `loanctl completion bash|zsh|fish` prints the completion script, generated from this very
 * command tree; the hidden `loanctl __complete profiles|snapshots|faults` is what the scripts run
 * at completion time for those names. Neither loads the HTTP stack or needs an API key.
 */
import { Argument, Option } from 'commander';
import { SHELLS } from '../../completion/shells.js';
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';

/** `loanctl completion SHELL`. */
export const completion: Verb = (program, deps) => {
  program
    .command('completion')
    .description('Print the tab-completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell: bash, zsh or fish').choices(SHELLS))
    .addHelpText(
      'after',
      `${examples(
        'source <(loanctl completion bash)              # bash: this shell (add the line to ~/.bashrc to keep it)',
        'loanctl completion zsh > ~/.zfunc/_loanctl     # zsh: a directory on $fpath, before compinit in ~/.zshrc',
        'loanctl completion fish > ~/.config/fish/completions/loanctl.fish',
      )}
Completes commands, flags, fixed values (e.g. --tenured-in, --frequency, -o), profile names,
snapshot names and fault ids (of the --data-dir on the line, else the default one). The script
runs this loanctl by its full path for the names (no need for it on PATH): print it again after
moving loanctl or its Node.
`,
    )
    // The checked-in scripts (npm run completions) run `loanctl` from PATH, wherever it was installed.
    .addOption(new Option('--invoke <command>', 'what the script runs for the names it completes').hideHelp())
    .action(async (shell: (typeof SHELLS)[number], options: { invoke?: string }) => {
      const { runCompletion } = await import('./run.js');
      await runCompletion({ shell, invoke: options.invoke }, program, deps);
    });
};

/** The hidden `loanctl __complete WHAT` the scripts run at completion time. */
export const complete: Verb = (program, deps) => {
  program
    .command('__complete', { hidden: true })
    .description('values the completion scripts read at completion time: profiles, snapshots, faults')
    .argument('<what>')
    .option('--data-dir <dir>', 'the data dir of snapshots and faults (the one on the line being completed)')
    .action(async (what: string, options: { dataDir?: string }) => {
      const { runComplete } = await import('./run.js');
      await runComplete({ what, dataDir: options.dataDir }, deps);
    });
};
