/**
 * A real pseudo-terminal for end-to-end tests of the interactive commands: tmux on its own socket
 * (`-L`), one detached session of a fixed size running a command, driven with `send-keys` and read
 * with `capture-pane -p`, polled until the expected text shows (never a fixed sleep).
 *
 * The command runs under `sh -c 'trap : INT; …; echo "[exited $?]"; exec sleep …'`, so its exit code stays
 * on the screen after it ends. `killServer()` (afterAll) ends the session and the server.
 */
import { execFile, execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

const TMUX = 'tmux';

/** Whether tmux is on PATH (.ci/run installs it where it is missing). */
export function hasTmux(): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${TMUX}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface PtyOptions {
  /** The whole environment of the command (tmux's server is started with it; nothing else leaks in). */
  env: Record<string, string>;
  cwd?: string;
  width?: number;
  height?: number;
}

export interface WaitOptions {
  /** Default 15 s. */
  timeoutMs?: number;
}

let sessions = 0;

export class TmuxPty {
  readonly socket: string;
  readonly session = 'main';
  /** Where tmux put the socket, removed by killServer (tmux leaves it behind). */
  private socketPath: string | undefined;

  private constructor(
    socket: string,
    private readonly env: Record<string, string>,
  ) {
    this.socket = socket;
  }

  /** Starts `argv` in a new detached session on a fresh socket. */
  static async start(argv: readonly string[], options: PtyOptions): Promise<TmuxPty> {
    const socket = `loanctl-test-${process.pid}-${++sessions}`;
    const env = { TERM: 'xterm-256color', ...options.env };
    const pty = new TmuxPty(socket, env);
    const quoted = argv.map(shellQuote).join(' ');
    // `trap : INT`: Ctrl-C outside a prompt (the terminal not in raw mode) sends SIGINT to the
    // whole foreground group, sh too; without a trap sh would die with the command and take the
    // session, and its `[exited N]`, with it. A trap that runs a command is reset in the child.
    const script = `trap : INT; ${quoted}; echo "[exited $?]"; exec sleep 600`;
    await pty.tmux([
      'new-session',
      '-d',
      '-s',
      pty.session,
      '-x',
      String(options.width ?? 120),
      '-y',
      String(options.height ?? 40),
      ...(options.cwd ? ['-c', options.cwd] : []),
      'sh',
      '-c',
      script,
    ]);
    // Keep everything that scrolls off, so a test can read the whole conversation.
    await pty.tmux(['set-option', '-t', pty.session, 'history-limit', '5000']);
    pty.socketPath = (await pty.tmux(['display-message', '-p', '#{socket_path}'])).trim() || undefined;
    return pty;
  }

  private async tmux(args: string[]): Promise<string> {
    const { stdout } = await run(TMUX, ['-L', this.socket, ...args], { env: this.env });
    return stdout;
  }

  /** The screen and its scrollback, as text (trailing blank lines dropped). */
  async screen(): Promise<string> {
    const text = await this.tmux(['capture-pane', '-p', '-J', '-S', '-', '-t', this.session]);
    return text.replace(/\s+$/, '');
  }

  /** The screen with its colour escape sequences kept (`capture-pane -e`), to check colour is off. */
  async screenWithEscapes(): Promise<string> {
    return this.tmux(['capture-pane', '-p', '-e', '-J', '-S', '-', '-t', this.session]);
  }

  /** Keys by tmux name: `Enter`, `Down`, `C-c`, `C-u`. */
  async keys(...keys: string[]): Promise<void> {
    await this.tmux(['send-keys', '-t', this.session, ...keys]);
  }

  /** Literal text (no key names), without Enter. */
  async type(text: string): Promise<void> {
    await this.tmux(['send-keys', '-t', this.session, '-l', text]);
  }

  /**
   * Polls the screen until `pattern` matches (a string: until it appears; a function: until it
   * returns true); returns the screen.
   */
  async waitFor(pattern: RegExp | string | ((screen: string) => boolean), options: WaitOptions = {}): Promise<string> {
    const timeoutMs = options.timeoutMs ?? 15_000;
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    for (let delay = 20; ; delay = Math.min(delay * 2, 200)) {
      screen = await this.screen();
      const found =
        typeof pattern === 'string'
          ? screen.includes(pattern)
          : typeof pattern === 'function'
            ? pattern(screen)
            : pattern.test(screen);
      if (found) return screen;
      if (Date.now() > deadline) {
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${String(pattern)}; the screen:\n${screen}`);
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /**
   * Waits for the inquirer prompt asking `question` to be the open one: the screen's last prompt
   * line (`? …` open, `✔ …` answered) is `? question`, so keys typed next reach it and not the one
   * before. A string must be the whole question, up to its `(hint)` or default: `Tenure` does not
   * match `? Tenure in`. A RegExp is matched from the start of the question.
   */
  async waitForPrompt(question: RegExp | string, options: WaitOptions = {}): Promise<string> {
    const open =
      typeof question === 'string'
        ? new RegExp(`^\\? ${escapeRegExp(question)}(?=\\s*$|\\s+\\()`)
        : new RegExp(`^\\? (?:${question.source})`);
    return this.waitFor((screen) => {
      const prompts = screen.split('\n').filter((line) => /^[?✔] /.test(line));
      const last = prompts.at(-1);
      return last !== undefined && open.test(last);
    }, options);
  }

  /** Waits for the prompt, types the answer and presses Enter. */
  async answer(question: RegExp | string, text: string): Promise<void> {
    await this.waitForPrompt(question);
    if (text !== '') await this.type(text);
    await this.keys('Enter');
  }

  /** The command's exit code, once `[exited N]` shows. */
  async exitCode(options: WaitOptions = {}): Promise<number> {
    const screen = await this.waitFor(/^\[exited (\d+)\]$/m, options);
    return Number(/^\[exited (\d+)\]$/m.exec(screen)?.[1]);
  }

  /** Ends the session and the server, and removes the socket (safe to call twice). */
  async killServer(): Promise<void> {
    await this.tmux(['kill-server']).catch(() => {});
    if (this.socketPath) rmSync(this.socketPath, { force: true });
  }
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
