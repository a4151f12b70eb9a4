/**
 * What a document may name, checked against what exists: a link's file and `#section`, a file path
 * of the repository in backticks or a code block, a `loanctl` command line and its flags (against
 * the real command tree), a verb written without `loanctl` (`loan show`), and a lone `--flag`.
 * test/unit/docs-links.test.ts runs it on every document of the repository and on bad samples.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { type CommandSpec, type CompletionSpec, flagsOf } from '../../src/completion/spec.js';

/** What the checks read: the repository's root, and the command tree. */
export interface DocWorld {
  root: string;
  spec: CompletionSpec;
}

/** The repository's top-level folders and files a path in a document may start with. */
const REPO_DIRS = [
  'src/',
  'test/',
  'bin/',
  'scripts/',
  'bench/',
  'docs/',
  'examples/',
  'fixtures/',
  'completions/',
  '.ci/',
];
const REPO_FILES = /^(package\.json|README\.md|CONTRIBUTING\.md|biome\.json|tsconfig\.json|vitest[\w.]*\.ts)$/;
/** Made by the build or the tests, not kept in git (.gitignore): named, but absent from a clean checkout. */
const BUILT = ['dist/', 'build/', 'node_modules/', 'test-artifacts/', 'coverage/'];

/** The heading anchors of a Markdown text, as GitHub makes them (github-slugger, duplicates -1, -2…). */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCodeBlocks(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = (heading[1] ?? '')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*]/g, '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The text with fenced code blocks blanked (their lines kept, so line numbers stay). */
function withoutCodeBlocks(markdown: string): string {
  let inBlock = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        inBlock = !inBlock;
        return '';
      }
      return inBlock ? '' : line;
    })
    .join('\n');
}

/** The fenced code blocks' lines, each with its line number. */
function codeLines(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let inBlock = false;
  markdown.split('\n').forEach((text, index) => {
    if (/^\s*```/.test(text)) inBlock = !inBlock;
    else if (inBlock) out.push({ line: index + 1, text });
  });
  return out;
}

/** The inline code spans outside code blocks (one may run onto the next line), each with its line number. */
function codeSpans(markdown: string): { line: number; text: string }[] {
  const text = withoutCodeBlocks(markdown);
  return [...text.matchAll(/(`+)((?:(?!\1)[^\n]|\n(?!\s*\n))+?)\1/g)].map((match) => ({
    line: text.slice(0, match.index).split('\n').length,
    // A table escapes `|` in a cell as `\|`.
    text: (match[2] ?? '').replace(/\s+/g, ' ').replaceAll('\\|', '|').trim(),
  }));
}

/** A path of the repository named in a document exists (a built one is taken on trust). */
function pathProblem(world: DocWorld, path: string): string | undefined {
  const clean = path.replace(/[),.:;]+$/, '');
  if (/[<>*…{}$]|\.\.\.|\bNAME\b|\bID\b/.test(clean)) return undefined;
  const named = REPO_DIRS.some((dir) => clean.startsWith(dir)) || REPO_FILES.test(clean);
  if (!named || BUILT.some((dir) => clean.startsWith(dir))) return undefined;
  return existsSync(join(world.root, clean)) ? undefined : `names ${clean}, which does not exist`;
}

/** `loanctl loan approve`: how a problem names a command. */
const shown = (command: CommandSpec) => `\`${['loanctl', ...command.path].join(' ')}\``;

/**
 * Names a document shows on purpose as not loanctl's — a typo that gets a suggestion, a verb a
 * recipe would add — declared in it as `<!-- not loanctl's: sandbox stat; loan decline; --reason -->`.
 */
function declaredAbsent(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const match of markdown.matchAll(/<!--\s*not loanctl's:([^>]*)-->/g)) {
    for (const name of (match[1] ?? '').split(';')) if (name.trim()) names.add(name.trim());
  }
  return names;
}

/** The problems of the words after `loanctl`: a command or a flag it does not have. */
function commandProblems(world: DocWorld, words: readonly string[], absent: Set<string>): string[] {
  const problems: string[] = [];
  const global = new Map(world.spec.globalOptions.flatMap((option) => flagsOf(option).map((flag) => [flag, option])));
  let command: CommandSpec = world.spec.root;
  let flags = new Map([
    ...global,
    ...command.options.flatMap((option) => flagsOf(option).map((flag) => [flag, option] as const)),
  ]);
  let positional = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (/^(\||\|\||&&|;|>|>>|<|2>|&|#.*|\)|\$\(.*)$/.test(word) || /^[<>]/.test(word)) break;
    if (word === '--') break;
    if (/^--?[a-z][\w-]*\|/.test(word)) {
      // Alternatives, as a table writes them: `--registered|--no-registered`.
      for (const name of word.split('|')) {
        if (name.startsWith('-') && !flags.has(name) && !absent.has(name))
          problems.push(`${shown(command)} has no flag ${name}`);
      }
      continue;
    }
    if (word.startsWith('-') && word.length > 1 && !/^-\d/.test(word)) {
      const name = word.replace(/=.*$/, '');
      if (/[A-Z]$|[<…[]/.test(name) || name === '--X-since' || name === '--X-until') continue;
      const option = flags.get(name);
      if (!option) {
        if (!absent.has(name)) problems.push(`${shown(command)} has no flag ${name}`);
        continue;
      }
      if (option.takesValue && !word.includes('=') && !(words[i + 1] ?? '-').startsWith('-')) i++;
      continue;
    }
    const sub =
      positional === 0 ? command.commands.find((c) => c.name === word || c.aliases.includes(word)) : undefined;
    if (sub) {
      command = sub;
      flags = new Map([
        ...global,
        ...sub.options.flatMap((option) => flagsOf(option).map((flag) => [flag, option] as const)),
      ]);
      continue;
    }
    if (positional === 0 && command.commands.length > 0 && !command.runs) {
      // Not one of the group's commands: a typo, or not a command line at all (`loanctl 0.1.0 (…)`).
      const path = [...command.path, word].join(' ');
      if (/^[a-z][a-z-]*$/.test(word) && !absent.has(path)) problems.push(`${shown(command)} has no command ${word}`);
      break;
    }
    positional++;
  }
  return problems;
}

/** Splits a shell line into words (quotes kept together; good enough for the examples docs show). */
function words(line: string): string[] {
  return [...line.matchAll(/"(?:[^"\\]|\\.)*"|'[^']*'|\S+/g)].map((match) => match[0]);
}

/** Every `loanctl …` in a line: the words after each. */
function loanctlRuns(line: string): string[][] {
  const all = words(line);
  const runs: string[][] = [];
  all.forEach((word, index) => {
    if (/^(\$\()?loanctl$/.test(word) && all[index - 1] !== 'npm') runs.push(all.slice(index + 1));
  });
  return runs;
}

/**
 * A verb written without `loanctl` (`loan show ID`, `profile add|use|remove`, `sandbox faults
 * clear`): when the first word is a top-level command with verbs, the next words must be its verbs.
 */
function bareVerbProblems(world: DocWorld, span: string, absent: Set<string>): string[] {
  const [first, second, third] = span.split(/\s+/);
  const noun = world.spec.root.commands.find((command) => command.name === first);
  if (!noun || noun.commands.length === 0 || second === undefined || !/^[a-z][a-z|-]*$/.test(second)) return [];
  const problems: string[] = [];
  for (const name of second.split('|')) {
    const verb = noun.commands.find((command) => command.name === name);
    if (!verb) {
      if (!noun.runs && !absent.has(`${noun.name} ${name}`)) problems.push(`\`${noun.name}\` has no command ${name}`);
      continue;
    }
    if (third && verb.commands.length > 0 && !verb.runs && /^[a-z][a-z|-]*$/.test(third)) {
      for (const inner of third.split('|')) {
        if (!verb.commands.some((command) => command.name === inner) && !absent.has(`${noun.name} ${name} ${inner}`))
          problems.push(`\`${noun.name} ${name}\` has no command ${inner}`);
      }
    }
  }
  return problems;
}

/**
 * A command line written without `loanctl` (`loan list --fields id,status`): when the first word
 * is a top-level command and the span goes on, its verbs and flags are checked as `loanctl …`'s.
 * A span of alternatives (`profile add|use`) is left to bareVerbProblems.
 */
function bareCommandProblems(world: DocWorld, span: string, absent: Set<string>): string[] {
  const all = words(span);
  const [first, second] = all;
  if (second === undefined || second.includes('|') || !world.spec.root.commands.some((c) => c.name === first))
    return [];
  if (!/^[a-z-]+$/.test(second) && !second.startsWith('-')) return [];
  return commandProblems(world, all, absent).filter((problem) => problem.includes(' has no flag '));
}

/** Every long flag of the command tree. */
function allFlags(spec: CompletionSpec): Set<string> {
  const flags = new Set<string>(['--help', '--version']);
  const visit = (command: CommandSpec) => {
    for (const option of command.options) for (const flag of flagsOf(option)) flags.add(flag);
    command.commands.forEach(visit);
  };
  visit(spec.root);
  for (const option of spec.globalOptions) for (const flag of flagsOf(option)) flags.add(flag);
  return flags;
}

/**
 * The problems of one document, each `FILE:LINE: what`; `file` is absolute. `loneFlags`: a `--flag`
 * alone in backticks must be one of loanctl's (not in a document about other programs' flags).
 */
export function checkDocument(
  world: DocWorld,
  file: string,
  markdown: string,
  options: { loneFlags: boolean } = { loneFlags: true },
): string[] {
  const problems: string[] = [];
  const name = relative(world.root, file);
  const say = (line: number, what: string) => problems.push(`${name}:${line}: ${what}`);
  const flags = allFlags(world.spec);
  const absent = declaredAbsent(markdown);

  // Links and images: [text](target), the file and its #section.
  withoutCodeBlocks(markdown)
    .split('\n')
    .forEach((text, index) => {
      const spanless = text.replace(/`[^`]*`/g, '');
      for (const match of spanless.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = match[1] ?? '';
        if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
        const [path = '', anchor] = target.split('#');
        const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
        if (path !== '' && !existsSync(resolved)) {
          say(index + 1, `links to ${path}, which does not exist`);
          continue;
        }
        if (anchor === undefined) continue;
        if (!resolved.endsWith('.md') || (path !== '' && statSync(resolved).isDirectory())) {
          say(index + 1, `links to #${anchor} of ${path}, which is not a Markdown file`);
          continue;
        }
        const anchors = resolved === file ? anchorsOf(markdown) : anchorsOf(readFileSync(resolved, 'utf8'));
        if (!anchors.has(anchor)) say(index + 1, `links to ${path}#${anchor}, a section that does not exist`);
      }
    });

  // Plain text: a path of the repository written without backticks (`test/x.test.ts "its name"` in a table).
  withoutCodeBlocks(markdown)
    .split('\n')
    .forEach((text, index) => {
      const prose = text.replace(/(`+).*?\1/g, '').replace(/\]\([^)]*\)/g, ']');
      for (const match of prose.matchAll(
        /(?:^|[\s(|,;"])((?:src|test|bin|scripts|bench|docs|examples|fixtures|completions|\.ci)\/[\w./<>*-]*)/g,
      )) {
        const problem = pathProblem(world, match[1] ?? '');
        if (problem) say(index + 1, problem);
      }
    });

  // Code spans: a path, a `loanctl` command line, a bare verb, a lone flag.
  for (const { line, text } of codeSpans(markdown)) {
    for (const word of words(text)) {
      const problem = pathProblem(world, word);
      if (problem) say(line, problem);
    }
    for (const run of loanctlRuns(text)) for (const problem of commandProblems(world, run, absent)) say(line, problem);
    for (const problem of bareVerbProblems(world, text, absent)) say(line, problem);
    for (const problem of bareCommandProblems(world, text, absent)) say(line, problem);
    const lone = /^(--[a-z][a-z0-9-]*)(?:[ =].*)?$/.exec(text);
    if (options.loneFlags && lone?.[1] && !flags.has(lone[1]) && !absent.has(lone[1])) {
      say(line, `names the flag ${lone[1]}, which no loanctl command has`);
    }
  }

  // Code blocks: paths and `loanctl` command lines, a line continued with `\` read as one.
  const blocks = codeLines(markdown);
  for (let i = 0; i < blocks.length; i++) {
    const first = blocks[i];
    if (!first) continue;
    let text = first.text;
    while (text.endsWith('\\') && blocks[i + 1]) text = `${text.slice(0, -1)} ${blocks[++i]?.text ?? ''}`;
    const code = text.replace(/(^|\s)#.*$/, '');
    for (const word of words(code)) {
      const problem = pathProblem(world, word);
      if (problem) say(first.line, problem);
    }
    for (const run of loanctlRuns(code))
      for (const problem of commandProblems(world, run, absent)) say(first.line, problem);
  }
  return problems;
}
