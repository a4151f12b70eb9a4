/** What the demo tells the operator on stderr around the steps: the intro, the summary, what to try next. */
import type { Deps } from '../../deps.js';
import { formatMoney } from '../../output/format.js';
import { colorEnabled } from '../../output/settings.js';
import { buildSchedule, repaymentTermsFromApproval } from '../../repayment/index.js';
import { SANDBOX_PROFILE } from '../common/sandbox-listening.js';
import { type DemoContext, TERMS } from './steps.js';

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  command(text: string): string;
}

/** Colour on stderr by the conventions' rules (a TTY, no NO_COLOR or --no-color; FORCE_COLOR). */
export async function narrationStyle(deps: Deps): Promise<Style> {
  const plain = (text: string) => text;
  if (!colorEnabled(deps.globals, deps.env, deps.io.stderr)) return { bold: plain, dim: plain, command: plain };
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  return { bold: (text) => chalk.bold(text), dim: (text) => chalk.dim(text), command: (text) => chalk.cyan(text) };
}

export function intro(style: Style): string {
  return [
    style.bold('loanctl demo: the whole loan flow, start to finish, on a sandbox of its own'),
    '',
    'loanctl lets a lender run the Lending Origination API from a terminal or a script: create',
    'borrowers and loan requests, attach bank details, employment and guarantors, submit, approve,',
    'and read it all back. This demo starts a private sandbox of the API on this machine, runs each',
    'step with the command you would type (after "$"), prints what came back, and cleans up after.',
    '',
    '',
  ].join('\n');
}

export function summary(context: DemoContext, deps: Deps): string {
  // The approval the demo sends, as the repayment module schedules it from today.
  const approval = {
    approved_amount: Number(TERMS.approvedAmount),
    rate: Number(TERMS.rate),
    tenure: Number(TERMS.tenure),
    tenured_in: TERMS.tenuredIn,
    rate_type: TERMS.rateType,
    frequency: TERMS.frequency,
  };
  const schedule = buildSchedule(repaymentTermsFromApproval(approval, deps.now()));
  const count = schedule.instalments.length;
  return (
    `Done: loan request ${context.loanId} is approved: ${formatMoney(Number(TERMS.approvedAmount))} over ` +
    `${TERMS.tenure} ${TERMS.tenuredIn}, ${formatMoney(schedule.total_repayment)} to repay in ${count} ` +
    `${TERMS.frequency} instalments.`
  );
}

export function nextSteps(style: Style): string {
  const row = (command: string, what: string) => `  ${style.command(command.padEnd(38))}  ${what}`;
  return [
    '',
    style.bold('Next:'),
    row('loanctl demo --keep', 'the same, then leave the sandbox running to explore'),
    row('loanctl sandbox start', 'a sandbox of your own that keeps its data'),
    row(`loanctl --profile ${SANDBOX_PROFILE} loan new`, 'in another terminal: your own loan request, guided'),
    row('loanctl --help', 'every command; each has --help with examples'),
    '',
  ].join('\n');
}
