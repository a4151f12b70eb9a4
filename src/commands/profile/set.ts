/**
 * `loanctl profile set NAME --base-url URL | --product-id N | --org-id N | --dashboard-url T | --[no-]csv-bom | --api-key-stdin`:
 * changes some fields of a profile and keeps the others, instead of adding it again. The key goes
 * where the profile keeps it (OS keyring or file); the write is locked and atomic like profile add's.
 */
import { checkBaseUrl } from '../../config/base-url.js';
import { checkDashboardUrl } from '../../config/dashboard-url.js';
import { positiveInt } from '../../config/settings.js';
import { checkProfileName } from '../../config/store.js';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { notice } from '../../output/notice.js';
import { readSecret } from '../common/stdin.js';

export interface ProfileSetOptions {
  name: string;
  productId?: string;
  orgId?: string;
  dashboardUrl?: string;
  /** `--csv-bom` / `--no-csv-bom`: whether `-o csv` writes a byte-order mark without `--bom`. */
  csvBom?: boolean;
  apiKeyStdin?: boolean;
}

export async function runProfileSet(options: ProfileSetOptions, deps: Deps): Promise<void> {
  const name = checkProfileName(options.name);
  // --base-url is the global option, as in profile add: here it is saved into the profile.
  const baseUrl = deps.globals.baseUrl === undefined ? undefined : checkBaseUrl(deps.globals.baseUrl);
  const productId = options.productId === undefined ? undefined : positiveInt(options.productId, '--product-id');
  const orgId = options.orgId === undefined ? undefined : positiveInt(options.orgId, '--org-id');
  const dashboardUrl = options.dashboardUrl === undefined ? undefined : checkDashboardUrl(options.dashboardUrl);
  const fields = { baseUrl, productId, orgId, dashboardUrl, csvBom: options.csvBom };
  if (Object.values(fields).every((value) => value === undefined) && !options.apiKeyStdin) {
    throw new UsageError(
      'Nothing to change.',
      `Give --base-url, --product-id, --org-id, --dashboard-url, --csv-bom, --no-csv-bom or --api-key-stdin, e.g. loanctl profile set ${name} --product-id 12`,
    );
  }
  const store = await deps.config();
  store.require(name);
  const changed: string[] = [];
  if (options.apiKeyStdin) {
    const apiKey = await readSecret(deps, {
      stdinFlag: '--api-key-stdin',
      fromStdin: true,
      prompt: `API key for ${name}:`,
      what: 'API key',
      example: `printf '%s' "$KEY" | loanctl profile set ${name} --api-key-stdin`,
    });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting them is the point
    if (/[\s\u0000-\u001f\u007f]/.test(apiKey)) {
      throw new UsageError('The API key contains spaces or control characters.', 'Paste the key alone, on one line.');
    }
    const { replaceProfileKey } = await import('../../config/key-storage.js');
    const storage = await replaceProfileKey(store, name, apiKey);
    changed.push(storage === 'keyring' ? 'API key (in the OS keyring)' : 'API key (in the config file)');
  }
  if (Object.values(fields).some((value) => value !== undefined)) {
    store.patch(name, fields);
    if (baseUrl !== undefined) changed.push(`base URL ${baseUrl}`);
    if (productId !== undefined) changed.push(`product ${productId}`);
    if (orgId !== undefined) changed.push(`organisation ${orgId}`);
    if (dashboardUrl !== undefined) changed.push(`dashboard URL ${dashboardUrl}`);
    if (options.csvBom !== undefined) changed.push(`-o csv ${options.csvBom ? 'with' : 'without'} a byte-order mark`);
  }
  notice(deps, `Changed profile "${name}": ${changed.join(', ')}. Everything else is as it was.`);
}
