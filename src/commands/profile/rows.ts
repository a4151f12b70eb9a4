import { redactKey } from '../../config/settings.js';
import type { Profile } from '../../config/store.js';

/** A profile as the `profile` commands show it: snake_case like the API, the key redacted. */
export function profileRow(name: string, profile: Profile, current: boolean) {
  return {
    name,
    current,
    base_url: profile.baseUrl,
    product_id: profile.productId ?? null,
    org_id: profile.orgId ?? null,
    api_key: redactKey(profile.apiKey),
  };
}
