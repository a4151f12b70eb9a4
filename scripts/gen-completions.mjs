// Writes the shell completion scripts checked in under completions/: exactly what the built CLI
// prints for `loanctl completion bash|zsh|fish`. `npm run completions` builds first; run it after
// adding or changing a command, flag or fixed value (test/unit/completion.test.ts fails until then).

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FILES = { bash: 'loanctl.bash', zsh: '_loanctl', fish: 'loanctl.fish' };

const root = fileURLToPath(new URL('..', import.meta.url));
mkdirSync(new URL('../completions', import.meta.url), { recursive: true });
for (const [shell, file] of Object.entries(FILES)) {
  const script = execFileSync(process.execPath, ['bin/loanctl.js', 'completion', shell, '--invoke', 'loanctl'], {
    cwd: root,
    encoding: 'utf8',
    // Nothing of the machine's environment may change the script.
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
  });
  writeFileSync(new URL(`../completions/${file}`, import.meta.url), script);
  console.log(`completions/${file}: ${script.split('\n').length - 1} lines`);
}
