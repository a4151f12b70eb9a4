/**
 * Path globs for `sandbox faults add --path` and `sandbox logs --path`: `*` matches any characters
 * within one path segment, `**` any characters across segments, `?` one character; everything else
 * matches itself. (node's path.matchesGlob is experimental on Node 22, which loanctl supports.)
 */
export function globMatcher(glob: string): (path: string) => boolean {
  let pattern = '';
  for (let index = 0; index < glob.length; index++) {
    const character = glob[index] as string;
    if (character === '*' && glob[index + 1] === '*') {
      pattern += '.*';
      index++;
    } else if (character === '*') pattern += '[^/]*';
    else if (character === '?') pattern += '[^/]';
    else pattern += character.replace(/[\\^$.+()[\]{}|]/g, '\\$&');
  }
  const regex = new RegExp(`^${pattern}$`);
  return (path) => regex.test(path);
}
