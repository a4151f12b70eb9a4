/**
 * `loanctl loan add-business ID …` (spec 4.11, every field of 2.6 as a flag): the operation's verb
 * (../common/operation-verb.ts), whose `--org-id` has a looked-up default (./add-business.ts).
 */
import { operationVerb } from '../common/operation-verb.js';
import type { Verb } from '../common/verb.js';

export const loanAddBusiness: Verb = (loan, deps) => {
  operationVerb(loan, 'add-business', 'addBusinessInfo', deps, {
    description: 'Add business information to a loan request',
    examples: [
      'loanctl loan add-business 172 --name "Ada Stores" --role owner --industry retail --description "Grocery shop" --registered --registration-number RC123456 --established-on 2019-03-01',
      'loanctl loan add-business 172 --data @business.json --org-id 3',
    ],
    what: 'business information',
    // Without --org-id: the profile's, else the user list's (./add-business.ts).
    lookupDefault: {
      key: 'org_id',
      placeholder: 1,
      resolve: async () => (await import('./add-business.js')).defaultOrgId(deps),
    },
  });
};
