/**
 * `loanctl loan add-employment ID …` (spec 4.17): once per loan request; a second time the API
 * answers 500 with status `error` (exit 1). `--manager-phone` is any text to the API; a Nigerian
 * number in one of the accepted forms is sent in the +234 form, anything else as typed.
 */
import { EmploymentRequest } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { normalisePhone, parseEmail, parseText, parseWholeNumber } from '../../input/values.js';
import { runAttach } from './attach.js';
import type { DataOption, LoanIdOptions } from './common.js';

export interface LoanAddEmploymentOptions extends LoanIdOptions, DataOption {
  status?: string;
  companyName?: string;
  companyAddress?: string;
  position?: string;
  salary?: string;
  manager?: string;
  managerPhone?: string;
  managerEmail?: string;
}

const managerPhone = (raw: string, source: string) => normalisePhone(raw) ?? parseText(raw, source);

export async function runLoanAddEmployment(options: LoanAddEmploymentOptions, deps: Deps): Promise<void> {
  await runAttach(options, deps, {
    endpoint: 'addEmployment',
    schema: EmploymentRequest,
    what: 'employment information',
    kind: 'employment',
    fields: [
      { key: 'status', flag: '--status', value: options.status, parse: parseText },
      { key: 'company_name', flag: '--company-name', value: options.companyName, parse: parseText },
      { key: 'company_address', flag: '--company-address', value: options.companyAddress, parse: parseText },
      { key: 'position', flag: '--position', value: options.position, parse: parseText },
      { key: 'salary', flag: '--salary', value: options.salary, parse: parseWholeNumber },
      { key: 'manager', flag: '--manager', value: options.manager, parse: parseText },
      { key: 'manager_phone', flag: '--manager-phone', value: options.managerPhone, parse: managerPhone },
      { key: 'manager_email', flag: '--manager-email', value: options.managerEmail, parse: parseEmail },
    ],
  });
}
