// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell code, where ${…} is the shell's
/**
 * `loanctl completion bash|zsh|fish` prints the completion script, generated from this very
 * command tree; the hidden `loanctl __complete profiles` is what the scripts run at completion
 * time for profile names. Neither loads the HTTP stack or needs an API key.
 */
import { Argument, type Command, Option } from 'commander';
import { SHELLS } from '../../completion/shells.js';
import type { Deps } from '../../deps.js';
import { examples } from '../common/help.js';

export function registerCompletionCommand(program: Command, deps: Deps): void {
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
Completes commands, flags, fixed values (e.g. --tenured-in, --frequency, -o), profile names and
snapshot names. The script runs this loanctl by its full path for the names (no need for it on
PATH): print it again after moving loanctl or its Node.
`,
    )
    // The checked-in scripts (npm run completions) run `loanctl` from PATH, wherever it was installed.
    .addOption(new Option('--invoke <command>', 'what the script runs for profile and snapshot names').hideHelp())
    .action(async (shell: (typeof SHELLS)[number], options: { invoke?: string }) => {
      const { runCompletion } = await import('./run.js');
      runCompletion({ shell, invoke: options.invoke }, program, deps);
    });

  program
    .command('__complete', { hidden: true })
    .description('values the completion scripts read at completion time: profiles, snapshots')
    .argument('<what>')
    .action(async (what: string) => {
      const { runComplete } = await import('./run.js');
      await runComplete({ what }, deps);
    });
}
