/**
 * docs/guide.md's "Stages of a loan request": the state table (src/contract/table/stages.ts) as
 * two Markdown tables, written between markers by `npm run docs` (scripts/gen-docs.mjs);
 * test/unit/stages-doc.test.ts fails while the guide's copy is stale.
 */
import { OPERATIONS } from '../contract/operations.js';
import { marksText, STAGES, stageDef, stageWords, startStages, stateRow } from '../contract/states.js';

export const STAGES_BEGIN = '<!-- BEGIN GENERATED STAGES (npm run docs) -->';
export const STAGES_END = '<!-- END GENERATED STAGES -->';

const cell = (text: string) => text.replaceAll('|', '\\|');

/** The stages, what marks each, and for each operation on a loan request where it may start and where it leads. */
export function stagesMarkdown(): string {
  const stages = STAGES.map((stage) => {
    const def = stageDef(stage);
    const typed = def.alias === undefined ? `\`${stage}\`` : `\`${stage}\` or \`${def.alias}\``;
    return `| ${typed} | ${cell(def.help)} | ${cell(marksText(stage))} | ${def.progress ? `\`${def.progress}\`` : ''} |`;
  });
  const operations = OPERATIONS.flatMap((row) => {
    const state = stateRow(row.key);
    if (state === undefined) return [];
    const from =
      state.from === 'nothing'
        ? 'nothing (it creates one)'
        : state.from === 'any stage'
          ? 'any stage'
          : `${startStages(row.key).map(stageWords).join(', ')}; else \`${state.refusal}\``;
    const again = state.again === 'unchanged' ? ' (one already marked so is answered as it is)' : '';
    const to = state.to === undefined ? '' : `${stageWords(state.to)}${again}`;
    return [`| \`${row.key}\` | ${cell(row.summary)} | ${from} | ${to} |`];
  });
  return [
    STAGES_BEGIN,
    '| Stage (`--stage`, `--until`) | Meaning | Marked by | Progress marker |',
    '|---|---|---|---|',
    ...stages,
    '',
    '| Operation | What it does | May start from | Moves it to |',
    '|---|---|---|---|',
    ...operations,
    STAGES_END,
  ].join('\n');
}

/** `text` with its stages table replaced by `table`; throws when the markers are missing. */
export function withStages(text: string, table: string): string {
  const begin = text.indexOf(STAGES_BEGIN);
  const end = text.indexOf(STAGES_END);
  if (begin < 0 || end < begin) throw new Error('docs/guide.md has no stages markers');
  return text.slice(0, begin) + table + text.slice(end + STAGES_END.length);
}
