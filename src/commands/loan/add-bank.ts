/**
 * `loanctl loan add-bank ID --code --account-name [--account-number] [--bank-name]` (spec 4.12).
 * The API answers with the loan request in `data1`; that is what is printed.
 */
import { BankDetailsRequest } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { parseText } from '../../input/values.js';
import { runAttach } from './attach.js';
import type { DataOption, LoanIdOptions } from './common.js';

export interface LoanAddBankOptions extends LoanIdOptions, DataOption {
  code?: string;
  accountName?: string;
  accountNumber?: string;
  bankName?: string;
}

export async function runLoanAddBank(options: LoanAddBankOptions, deps: Deps): Promise<void> {
  await runAttach(options, deps, {
    endpoint: 'addBankDetails',
    schema: BankDetailsRequest,
    what: 'bank details',
    kind: 'loanRequest',
    fields: [
      { key: 'code', flag: '--code', value: options.code, parse: parseText },
      { key: 'account_name', flag: '--account-name', value: options.accountName, parse: parseText },
      { key: 'account_number', flag: '--account-number', value: options.accountNumber, parse: parseText },
      { key: 'bank_name', flag: '--bank-name', value: options.bankName, parse: parseText },
    ],
  });
}
