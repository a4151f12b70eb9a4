import { redactKey } from '../../config/settings.js';
import { keyStorageOf, type Profile } from '../../config/store.js';

/** A profile as the `profile` commands show it: snake_case like the API, the key redacted. */
export function profileRow(name: string, profile: Profile, current: boolean) {
  return {
    name,
    current,
    base_url: profile.baseUrl,
    product_id: profile.productId ?? null,
    org_id: profile.orgId ?? null,
    // A key in the keyring is not read just to be shown redacted (that could ask to unlock it).
    api_key: profile.apiKey === undefined ? null : redactKey(profile.apiKey),
    key_storage: keyStorageOf(profile),
    dashboard_url: profile.dashboardUrl ?? null,
    csv_bom: profile.csvBom === true,
  };
}
