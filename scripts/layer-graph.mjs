// The import graph of src/ by layer, as dependency-cruiser reads it with the rules of
// .dependency-cruiser.cjs, and drawn as a Mermaid flowchart for docs/architecture.md ("Layers").
// Used by scripts/gen-graph.mjs (`npm run graph`, which writes it) and test/unit/layers.test.ts
// (which checks the rules and fails when the drawn graph is stale).

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** dependency-cruiser's result for src/: `modules` (each with its dependencies) and `summary.violations`. */
export function cruiseSource() {
  // The package exports no path to its command line, so it is run from node_modules/.bin.
  const cli = join(ROOT, 'node_modules/.bin/depcruise');
  const json = execFileSync(process.execPath, [cli, 'src', '--config', '.dependency-cruiser.cjs', '-T', 'json'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(json);
}

/** A violation as one line: `rule: from → to` (a cycle lists its path). */
export function describeViolation(violation) {
  const cycle = violation.cycle?.map((step) => (typeof step === 'string' ? step : step.name));
  const to = cycle ? cycle.join(' → ') : violation.to;
  return `${violation.rule.name}: ${violation.from} → ${to}`;
}

/**
 * The modules of src/ that loading `from` loads: its imports that run when it loads, and theirs,
 * not `import type` nor `import()`. dependency-cruiser's `reachable` rules follow `import()` too,
 * so this walk is the project's own.
 */
export function loadedWith(result, from) {
  const imports = new Map(
    result.modules.map((module) => [
      module.source,
      module.dependencies
        .filter(
          (dependency) => !dependency.dependencyTypes.some((type) => type === 'type-only' || type === 'dynamic-import'),
        )
        .map((dependency) => dependency.resolved),
    ]),
  );
  const loaded = new Set();
  const pending = [from];
  while (pending.length > 0) {
    const source = pending.pop();
    if (loaded.has(source)) continue;
    loaded.add(source);
    pending.push(...(imports.get(source) ?? []));
  }
  return [...loaded].filter((source) => source.startsWith('src/')).sort();
}

/** The small modules every layer may import, drawn as one node. */
const LEAVES = /^src\/(basics|errors|version|make-dir|shell-quote)\.ts$/;
const LEAVES_NODE = 'basics.ts, errors.ts, version.ts, make-dir.ts, shell-quote.ts';

/** Top to bottom; a folder or file not listed is drawn after these. */
const ORDER = [
  'binary.ts',
  'entry.ts',
  'sandbox-entry.ts',
  'node-support.ts',
  'main.ts',
  'program.ts',
  'deps.ts',
  'quiet-io.ts',
  'commands/',
  'flows/',
  'bulk/',
  'domain/',
  'completion/',
  'reference/',
  'prompts/',
  'output/',
  'http/',
  'config/',
  'input/',
  'repayment/',
  'sandbox-api.ts',
  'sandbox/',
  'contract/',
  LEAVES_NODE,
];

/** `src/http/client.ts` → `http/`; `src/main.ts` → `main.ts`; outside src/ → undefined. */
function layerOf(path) {
  if (!path.startsWith('src/')) return undefined;
  if (LEAVES.test(path)) return LEAVES_NODE;
  const rest = path.slice('src/'.length);
  const slash = rest.indexOf('/');
  return slash === -1 ? rest : rest.slice(0, slash + 1);
}

/**
 * The layers and the imports between them as a Mermaid flowchart: a solid arrow where some import
 * runs when the module loads, a dotted one where every import between the two is `import type` or
 * `import()`.
 */
export function layerGraph(result) {
  const edges = new Map();
  const layers = new Set();
  for (const module of result.modules) {
    const from = layerOf(module.source);
    if (from === undefined) continue;
    layers.add(from);
    for (const dependency of module.dependencies) {
      const to = layerOf(dependency.resolved);
      if (to === undefined || to === from) continue;
      const key = `${from}\u0000${to}`;
      const loadTime = !dependency.dependencyTypes.some((type) => type === 'type-only' || type === 'dynamic-import');
      edges.set(key, edges.get(key) === true || loadTime);
    }
  }
  const rank = (layer) => (ORDER.includes(layer) ? ORDER.indexOf(layer) : ORDER.length);
  const sorted = [...layers].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  // Ids that read as the layer's name in the Markdown source: `http/` → http, `main.ts` → main_ts.
  const id = new Map(
    sorted.map((layer) => [layer, layer === LEAVES_NODE ? 'leaves' : layer.replace(/\/$/, '').replace(/\W/g, '_')]),
  );
  const lines = ['flowchart TD'];
  for (const layer of sorted) lines.push(`  ${id.get(layer)}["${layer}"]`);
  const arrows = [...edges].map(([key, loadTime]) => {
    const [from, to] = key.split('\u0000');
    return { from, to, loadTime };
  });
  arrows.sort(
    (a, b) =>
      rank(a.from) - rank(b.from) ||
      rank(a.to) - rank(b.to) ||
      a.from.localeCompare(b.from) ||
      a.to.localeCompare(b.to),
  );
  for (const { from, to, loadTime } of arrows)
    lines.push(`  ${id.get(from)} ${loadTime ? '-->' : '-.->'} ${id.get(to)}`);
  return lines.join('\n');
}

export const GRAPH_START = '<!-- layer graph: generated by `npm run graph` from the imports of src/; do not edit -->';
export const GRAPH_END = '<!-- end of layer graph -->';

/** `markdown` with the graph between its markers (which it must have). */
export function withGraph(markdown, graph) {
  const start = markdown.indexOf(GRAPH_START);
  const end = markdown.indexOf(GRAPH_END);
  if (start === -1 || end < start)
    throw new Error(`the layer graph's markers are missing:\n${GRAPH_START}\n${GRAPH_END}`);
  const block = `${GRAPH_START}\n\n\`\`\`mermaid\n${graph}\n\`\`\`\n\n`;
  return markdown.slice(0, start) + block + markdown.slice(end);
}
