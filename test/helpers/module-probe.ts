/**
 * Runs the built CLI with a module probe: which files of the bundle it loaded, which npm packages
 * those carry (read from their source maps), and Node's list of its own modules. The start-up
 * tests assert on these instead of on timings (timings are in `npm run bench`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { BIN, ROOT } from './cli.js';

/** Prints, at exit, every module URL loaded and Node's list of its own modules. */
const PROBE = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from 'node:module';
const urls = [];
registerHooks({ load(url, context, next) { urls.push(url); return next(url, context); } });
process.on('exit', () => process.stderr.write('\\nPROBE ' + JSON.stringify({ urls, builtins: process.moduleLoadList }) + '\\n'));
`)}`;

export interface Loaded {
  /** The files of the bundle (dist/) that were loaded. */
  files: string[];
  /** npm packages bundled into the chunks that were loaded, read from their source maps. */
  packages: Set<string>;
  /** `process.moduleLoadList`: Node's own modules, e.g. `NativeModule tls`. */
  builtins: string[];
  /** loanctl's own source files bundled into the chunks that were loaded, e.g. `src/contract/schemas.ts`. */
  sources: Set<string>;
  /** The npm packages' files bundled into them, from the package name on: `zod/v4/core/regexes.js`. */
  packageFiles: Set<string>;
}

export async function loadedBy(
  args: string[],
  env: Record<string, string>,
  input = '',
): Promise<{ stdout: string; exitCode: number; loaded: Loaded }> {
  const result = await execa(process.execPath, ['--import', PROBE, BIN, ...args], {
    env,
    extendEnv: false,
    reject: false,
    input,
    cwd: ROOT,
  });
  const line = String(result.stderr)
    .split('\n')
    .find((text) => text.startsWith('PROBE '));
  if (!line) throw new Error(`no probe output; stderr: ${result.stderr}`);
  const { urls, builtins } = JSON.parse(line.slice('PROBE '.length)) as { urls: string[]; builtins: string[] };
  const packages = new Set<string>();
  const sources = new Set<string>();
  const packageFiles = new Set<string>();
  const files = urls.filter((entry) => entry.startsWith('file:') && entry.includes('/dist/'));
  for (const url of files) {
    const map = JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')) as { sources: string[] };
    for (const source of map.sources) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1];
      if (name) packages.add(name);
      const inPackage = /node_modules\/(.*)$/.exec(source)?.[1];
      if (inPackage) packageFiles.add(inPackage);
      const own = /(?:^|\/)(src\/.*\.ts)$/.exec(source)?.[1];
      if (own && !source.includes('node_modules')) sources.add(own);
    }
  }
  return {
    stdout: String(result.stdout),
    exitCode: result.exitCode ?? -1,
    loaded: { files, packages, builtins, sources, packageFiles },
  };
}
