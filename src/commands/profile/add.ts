import { checkBaseUrl } from '../../config/base-url.js';
import { positiveInt } from '../../config/settings.js';
import { checkProfileName } from '../../config/store.js';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { readSecret } from '../common/stdin.js';

export interface ProfileAddOptions {
  name: string;
  productId?: string;
  orgId?: string;
  apiKeyStdin?: boolean;
  use?: boolean;
  insecureStorage?: boolean;
}

export async function runProfileAdd(options: ProfileAddOptions, deps: Deps): Promise<void> {
  const name = checkProfileName(options.name);
  // --base-url is the global option: the same flag, here saved instead of used once.
  if (!deps.globals.baseUrl) {
    throw new UsageError(
      'Missing --base-url.',
      `For example: loanctl profile add ${name} --base-url https://api.example.com`,
    );
  }
  const baseUrl = checkBaseUrl(deps.globals.baseUrl);
  const productId = options.productId === undefined ? undefined : positiveInt(options.productId, '--product-id');
  const orgId = options.orgId === undefined ? undefined : positiveInt(options.orgId, '--org-id');
  const store = await deps.config();
  const apiKey = await readSecret(deps, {
    stdinFlag: '--api-key-stdin',
    fromStdin: options.apiKeyStdin,
    prompt: `API key for ${name}:`,
    what: 'API key',
    example: `printf '%s' "$KEY" | loanctl profile add ${name} --base-url ${baseUrl} --api-key-stdin`,
  });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting them is the point
  if (/[\s\u0000-\u001f\u007f]/.test(apiKey)) {
    throw new UsageError('The API key contains spaces or control characters.', 'Paste the key alone, on one line.');
  }
  const existed = store.get(name) !== undefined;
  const { saveProfileWithKey } = await import('../../config/key-storage.js');
  const saved = await saveProfileWithKey(store, name, { baseUrl, productId, orgId }, apiKey, {
    insecureStorage: options.insecureStorage,
    makeCurrent: options.use,
    makeCurrentIfNone: true,
    warn: (line) => deps.io.stderr.write(`loanctl: warning: ${line}\n`),
  });
  const details = [baseUrl, productId === undefined ? undefined : `product ${productId}`].filter(Boolean).join(', ');
  deps.io.stderr.write(
    `${existed ? 'Updated' : 'Added'} profile "${name}" (${details}) in ${store.path}; ${whereKey(saved.storage)}.${saved.current ? ' It is the current profile.' : ` Use it with: loanctl profile use ${name}`}\n`,
  );
  // Said once, when the key is written: the profile records where it went, so no later run asks again.
  if (saved.fallbackReason !== undefined) {
    deps.io.stderr.write(
      `loanctl: warning: ${saved.fallbackReason}, so the API key is in ${store.path} (mode 0600). Pass --insecure-storage to choose the file on purpose and skip this warning.\n`,
    );
  }
}

function whereKey(storage: 'keyring' | 'file'): string {
  return storage === 'keyring' ? 'the API key is in the OS keyring' : 'the API key is in that file';
}
