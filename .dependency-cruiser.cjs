/**
 * The layering rules of src/, checked by dependency-cruiser in `npm test` (test/unit/layers.test.ts)
 * and explained in docs/architecture.md ("Layers"). A layer imports only below it; the wiring
 * (deps.ts) sits at the top and joins the layers; the basic types (basics.ts) import nothing.
 * `npm run graph` draws the graph of these layers into docs/architecture.md.
 */

/** Files every layer may import: they import nothing of src/ themselves (errors.ts only basics). */
const LEAVES = 'src/(basics|errors|version|make-dir|shell-quote)\\.ts$';

/** `^src/(a|b)/` for some folders of src/. */
const folders = (...names) => `^src/(${names.join('|')})/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-load-time-cycle',
      comment:
        'Modules that import one another at load time depend on the order ES modules happen to evaluate in. ' +
        'A cycle through `import type` (gone at run time) or `import()` (run later) is allowed.',
      severity: 'error',
      from: { path: '^src/' },
      to: {
        circular: true,
        dependencyTypesNot: ['type-only', 'dynamic-import'],
        viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] },
      },
    },
    {
      name: 'basics-import-nothing',
      comment: 'src/basics.ts holds the types every layer shares, so it imports nothing of src/.',
      severity: 'error',
      from: { path: '^src/basics\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'leaves-stay-leaves',
      comment: 'The small modules every layer may import import nothing of src/ but the basic types.',
      severity: 'error',
      from: { path: LEAVES },
      to: { path: '^src/', pathNot: '^src/basics\\.ts$' },
    },
    {
      name: 'wiring-at-the-top',
      comment:
        'deps.ts joins the layers: only main, the program, the commands and what they run (flows, bulk, domain) import it.',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: `^src/(deps|main|program)\\.ts$|${folders('commands', 'flows', 'bulk', 'domain')}`,
      },
      to: { path: '^src/deps\\.ts$' },
    },
    {
      name: 'only-the-program-imports-commands',
      comment: 'The command tree (program.ts) is the one way into the commands.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(commands/|program\\.ts$)' },
      to: { path: '^src/commands/' },
    },
    {
      name: 'a-command-keeps-to-its-noun',
      comment: "A command never imports another noun's files; what nouns share is in commands/common.",
      severity: 'error',
      from: { path: '^src/commands/([^/]+)/' },
      to: { path: '^src/commands/', pathNot: '^src/commands/($1|common)/' },
    },
    {
      name: 'the-command-tree-loads-no-run',
      comment:
        "A verb's file (`<verb>-verb.ts`) reaches its run with import(), so building the command tree " +
        '(--help, --version, completion) loads no run. It may load flags and help: -verb, common and flags files.',
      severity: 'error',
      from: { path: '^src/commands/([^/]+)/.+-verb\\.ts$', pathNot: '^src/commands/common/' },
      to: {
        path: '^src/commands/$1/',
        pathNot: '(-verb|/common|/flags)\\.ts$',
        dependencyTypesNot: ['dynamic-import', 'type-only'],
      },
    },
    {
      name: 'flows-below-commands',
      comment: 'Flows (the guided loan new) are run by commands, never the other way.',
      severity: 'error',
      from: { path: '^src/flows/' },
      to: { path: '^src/(commands/|program\\.ts$|main\\.ts$)' },
    },
    {
      name: 'bulk-below-commands',
      severity: 'error',
      from: { path: '^src/bulk/' },
      to: { path: `${folders('commands', 'flows')}|^src/(program|main)\\.ts$` },
    },
    {
      name: 'domain-finds-and-prints-nothing',
      comment: 'domain/ finds and reads through the client; printing and asking are for those above it.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: folders('commands', 'flows', 'bulk', 'output', 'prompts') },
    },
    {
      name: 'http-below-the-commands',
      comment: 'The client and transport know the contract and the settings, nothing that uses them.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: folders('commands', 'flows', 'bulk', 'domain', 'output', 'prompts', 'completion', 'sandbox') },
    },
    {
      name: 'output-prints-what-it-is-given',
      severity: 'error',
      from: { path: '^src/output/' },
      to: { path: folders('commands', 'flows', 'bulk', 'prompts', 'http', 'sandbox') },
    },
    {
      name: 'prompts-ask-only',
      severity: 'error',
      from: { path: '^src/prompts/' },
      to: { path: folders('commands', 'flows', 'bulk', 'domain', 'output', 'http', 'sandbox') },
    },
    {
      name: 'config-below-output-and-http',
      comment: 'Profiles, keys and settings: read by the client and the output, reading nothing of theirs.',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: `^src/config/|^src/input/duration\\.ts$|${LEAVES}` },
    },
    {
      name: 'input-parses-values',
      comment: 'Parsing what a user types: by the contract, and the repayment arithmetic (a yearly rate per unit).',
      severity: 'error',
      from: { path: '^src/input/' },
      to: { path: '^src/', pathNot: `${folders('input', 'contract', 'repayment')}|${LEAVES}` },
    },
    {
      name: 'repayment-is-arithmetic',
      severity: 'error',
      from: { path: '^src/repayment/' },
      to: { path: '^src/', pathNot: `${folders('repayment', 'contract')}|${LEAVES}` },
    },
    {
      name: 'contract-at-the-bottom',
      comment: 'The contract is the table everything is derived from; it derives from nothing.',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^src/', pathNot: `^src/contract/|${LEAVES}` },
    },
    {
      name: 'the-sandbox-stands-alone',
      comment:
        'The sandbox is a program of its own: it shares the contract, the repayment arithmetic, how values are ' +
        'shown, the duration and yearly-rate syntax, how a key is redacted and how large a reply may be, and nothing of the CLI.',
      severity: 'error',
      from: { path: '^src/sandbox/' },
      to: {
        path: '^src/',
        pathNot: `${folders('sandbox', 'contract', 'repayment')}|^src/output/(values|format|columns)\\.ts$|^src/http/(redact|bounds)\\.ts$|^src/input/(duration|annual-rate)\\.ts$|${LEAVES}`,
      },
    },
    {
      name: 'only-commands-start-the-sandbox',
      comment:
        'The sandbox is reached by the sandbox and demo commands (and its package export), not by the CLI layers.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(sandbox/|commands/|sandbox-api\\.ts$)' },
      to: { path: '^src/sandbox/' },
    },
    {
      name: 'no-dev-dependency-in-src',
      comment: 'What ships imports only the dependencies of package.json, never a devDependency.',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-unresolvable-import',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    // `import type` counts as an import (a rule about layers holds for types too), marked type-only.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
