/** The shells loanctl completes, and the file each one's script is checked in as under completions/. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export const COMPLETION_FILES: Readonly<Record<Shell, string>> = {
  bash: 'loanctl.bash',
  zsh: '_loanctl',
  fish: 'loanctl.fish',
};
