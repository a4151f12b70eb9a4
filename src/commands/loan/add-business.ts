/**
 * `loanctl loan add-business ID …` (spec 4.11, every field of 2.6 as a flag).
 *
 * The body needs the organisation's id. Without `--org-id` (or `org_id` in `--data`) it is the
 * profile's org id if the profile has one, else the `org_id` of the first user in the user list
 * (every user of the list belongs to the caller's organisation); a notice on stderr says which.
 */
import { BusinessRequest, type UserListItem } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { parseBoolean, parseDate, parseId, parseText, parseWholeNumber } from '../../input/values.js';
import { runAttach } from './attach.js';
import { type DataOption, type LoanIdOptions, notice } from './common.js';

export interface LoanAddBusinessOptions extends LoanIdOptions, DataOption {
  name?: string;
  orgId?: string;
  role?: string;
  industry?: string;
  description?: string;
  registered?: boolean;
  registrationNumber?: string;
  establishedOn?: string;
  physicalLocation?: string;
  numberOfLocations?: string;
  locationStatus?: string;
  averageMonthlyIncome?: string;
  lastTwelveMonthsIncome?: string;
  primaryPaymentsCollectionMethod?: string;
  numberOfEmployees?: string;
  monthlySalaryCost?: string;
  annualRentCost?: string;
  monthlyElectricityCost?: string;
  monthlyAdsCost?: string;
  monthlyMarketingCost?: string;
}

/** `number_of_employees` is a string of digits in the request (spec 2.6). */
const employees = (raw: string, source: string) => String(parseWholeNumber(raw, source));

export async function runLoanAddBusiness(options: LoanAddBusinessOptions, deps: Deps): Promise<void> {
  const o = options;
  await runAttach(options, deps, {
    endpoint: 'addBusinessInfo',
    schema: BusinessRequest,
    what: 'business information',
    kind: 'business',
    fields: [
      { key: 'name', flag: '--name', value: o.name, parse: parseText },
      { key: 'org_id', flag: '--org-id', value: o.orgId, parse: parseId },
      { key: 'role', flag: '--role', value: o.role, parse: parseText },
      { key: 'industry', flag: '--industry', value: o.industry, parse: parseText },
      { key: 'description', flag: '--description', value: o.description, parse: parseText },
      { key: 'registered', flag: '--registered or --no-registered', value: o.registered, parse: parseBoolean },
      { key: 'registration_number', flag: '--registration-number', value: o.registrationNumber, parse: parseText },
      { key: 'established_on', flag: '--established-on', value: o.establishedOn, parse: parseDate },
      { key: 'physical_location', flag: '--physical-location', value: o.physicalLocation, parse: parseText },
      {
        key: 'number_of_locations',
        flag: '--number-of-locations',
        value: o.numberOfLocations,
        parse: parseWholeNumber,
      },
      { key: 'location_status', flag: '--location-status', value: o.locationStatus, parse: parseText },
      {
        key: 'average_monthly_income',
        flag: '--average-monthly-income',
        value: o.averageMonthlyIncome,
        parse: parseWholeNumber,
      },
      {
        key: 'last_twelve_months_income',
        flag: '--last-twelve-months-income',
        value: o.lastTwelveMonthsIncome,
        parse: parseWholeNumber,
      },
      {
        key: 'primary_payments_collection_method',
        flag: '--primary-payments-collection-method',
        value: o.primaryPaymentsCollectionMethod,
        parse: parseText,
      },
      { key: 'number_of_employees', flag: '--number-of-employees', value: o.numberOfEmployees, parse: employees },
      {
        key: 'monthly_salary_cost',
        flag: '--monthly-salary-cost',
        value: o.monthlySalaryCost,
        parse: parseWholeNumber,
      },
      { key: 'annual_rent_cost', flag: '--annual-rent-cost', value: o.annualRentCost, parse: parseWholeNumber },
      {
        key: 'monthly_electricity_cost',
        flag: '--monthly-electricity-cost',
        value: o.monthlyElectricityCost,
        parse: parseWholeNumber,
      },
      { key: 'monthly_ads_cost', flag: '--monthly-ads-cost', value: o.monthlyAdsCost, parse: parseWholeNumber },
      {
        key: 'monthly_marketing_cost',
        flag: '--monthly-marketing-cost',
        value: o.monthlyMarketingCost,
        parse: parseWholeNumber,
      },
    ],
    lookupDefault: { key: 'org_id', placeholder: 1, resolve: () => defaultOrgId(deps) },
  });
}

/** The profile's org id, else the org_id of the user list's first user; else exit 2 naming --org-id. */
export async function defaultOrgId(deps: Deps): Promise<number> {
  const settings = await deps.settings();
  if (settings.orgId !== undefined) {
    notice(deps, `Using org id ${settings.orgId} from profile "${settings.profile?.name}" (pass --org-id to choose).`);
    return settings.orgId;
  }
  const api = await deps.api();
  const result = await api.call('listUsers', { query: { pages: 1 } });
  const first = (result.data as UserListItem[] | null)?.[0];
  if (!first) {
    throw new UsageError(
      'Missing --org-id: the business body needs your organisation id, and your user list is empty so it cannot be looked up.',
      'Pass --org-id N.',
    );
  }
  notice(deps, `Using org id ${first.org_id}, your organisation's, from the user list (pass --org-id to choose).`);
  return first.org_id;
}
