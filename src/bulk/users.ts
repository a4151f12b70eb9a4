/**
 * `user create --from`: one borrower a row. Fields: firstname, lastname, email, password, phone,
 * gender — checked and normalised by the same parsers as `user create`'s flags (the phone is sent
 * as +234…). Idempotent by e-mail: the API answers `exists` for an e-mail it has, and so does the
 * row, which makes running a file again safe.
 */
import { UserCreateRequest } from '../contract/schemas.js';
import { UsageError } from '../errors.js';
import type { ApiClient } from '../http/api-client.js';
import { buildBody } from '../input/body.js';
import { parseEmail, parsePhone, parseText } from '../input/values.js';
import type { BulkTask } from './engine.js';
import { rowFields } from './fields.js';

export const USER_FIELDS = ['firstname', 'lastname', 'email', 'password', 'phone', 'gender'] as const;

const SPECS = [
  { key: 'firstname', parse: parseText },
  { key: 'lastname', parse: parseText },
  { key: 'email', parse: parseEmail },
  { key: 'phone', parse: parsePhone },
  { key: 'gender', parse: parseText },
];

const WithoutPassword = UserCreateRequest.omit({ password: true });

export function userTask(api: () => ApiClient): BulkTask<UserCreateRequest> {
  return {
    prepare(fields) {
      const password = fields.password;
      const missingPassword = password === undefined || password === null || password === '';
      let body: Omit<UserCreateRequest, 'password'>;
      try {
        body = buildBody(WithoutPassword, rowFields(fields, SPECS)).body;
      } catch (error) {
        // One message for everything missing, the password included.
        if (missingPassword && error instanceof UsageError && error.message.startsWith('Missing ')) {
          throw new UsageError(error.message.replace(/\.$/, ', password.'));
        }
        throw error;
      }
      if (missingPassword) throw new UsageError('Missing password.');
      // The password is sent exactly as given (spaces kept), like `user create` does.
      if (typeof password !== 'string' && typeof password !== 'number') {
        throw new UsageError('password must be text.');
      }
      return UserCreateRequest.parse({ ...body, password: String(password) });
    },
    async execute(request) {
      const result = await api().call('createUser', { body: request });
      const reference = (result.data as { reference?: string } | null)?.reference;
      const exists = result.status === 'exists';
      return {
        status: exists ? 'exists' : 'success',
        reference,
        email: request.email,
        message: exists ? `A user with e-mail ${request.email} already exists; nothing was created.` : result.message,
      };
    },
  };
}
