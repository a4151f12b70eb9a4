/** `loanctl loan add-guarantor ID --firstname --lastname --gender --relationship --email --phone` (spec 4.15). */
import { GuarantorRequest } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { parseEmail, parsePhone, parseText } from '../../input/values.js';
import { runAttach } from './attach.js';
import type { DataOption, LoanIdOptions } from './common.js';

export interface LoanAddGuarantorOptions extends LoanIdOptions, DataOption {
  firstname?: string;
  lastname?: string;
  gender?: string;
  relationship?: string;
  email?: string;
  phone?: string;
}

export async function runLoanAddGuarantor(options: LoanAddGuarantorOptions, deps: Deps): Promise<void> {
  await runAttach(options, deps, {
    endpoint: 'addGuarantor',
    schema: GuarantorRequest,
    what: 'a guarantor',
    kind: 'guarantor',
    fields: [
      { key: 'firstname', flag: '--firstname', value: options.firstname, parse: parseText },
      { key: 'lastname', flag: '--lastname', value: options.lastname, parse: parseText },
      { key: 'gender', flag: '--gender', value: options.gender, parse: parseText },
      { key: 'relationship', flag: '--relationship', value: options.relationship, parse: parseText },
      { key: 'email', flag: '--email', value: options.email, parse: parseEmail },
      { key: 'phone', flag: '--phone', value: options.phone, parse: parsePhone },
    ],
  });
}
