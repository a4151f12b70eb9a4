/**
 * `user create --from`: one borrower a row. Fields: firstname, lastname, email, password, phone,
 * gender — checked and normalised by the same parsers as `user create`'s flags (the phone is sent
 * as +234…). Idempotent by e-mail: the API answers `exists` for an e-mail it has, and so does the
 * row, which makes running a file again safe.
 */
import { bodySchemaWithout } from '../contract/field-schemas.js';
import type { BodyOf } from '../contract/fields.js';
import { UsageError } from '../errors.js';
import type { ApiClient } from '../http/api-client.js';
import { buildBody, buildOperationBody } from '../input/body.js';
import type { BulkTask } from './engine.js';
import { bodyColumns, requiredColumns, rowFields } from './fields.js';

export const USER_FIELDS = bodyColumns('createUser');
/** The columns a CSV of users must have. */
export const USER_REQUIRED = requiredColumns('createUser');

/** `seen` is told each borrower's reference with its e-mail (user show REFERENCE answers from them). */
export function userTask(
  api: () => ApiClient,
  seen?: (reference: string, email: string) => void,
): BulkTask<BodyOf<'createUser'>> {
  return {
    prepare(fields) {
      const password = fields.password;
      const missingPassword = password === undefined || password === null || password === '';
      // The password is sent exactly as given (spaces kept), like `user create` does.
      if (!missingPassword && (typeof password === 'string' || typeof password === 'number')) {
        return buildOperationBody('createUser', rowFields('createUser', { ...fields, password: String(password) }))
          .body;
      }
      // The other fields first, so that a row missing some of them and its password is told all at once.
      try {
        buildBody(bodySchemaWithout('createUser', 'password'), rowFields('createUser', fields, ['password']));
      } catch (error) {
        if (missingPassword && error instanceof UsageError && error.message.startsWith('Missing ')) {
          throw new UsageError(error.message.replace(/\.$/, ', password.'));
        }
        throw error;
      }
      throw new UsageError(missingPassword ? 'Missing password.' : 'password must be text.');
    },
    async execute(request) {
      const result = await api().call('createUser', { body: request });
      const reference = result.data.reference;
      const exists = result.status === 'exists';
      if (typeof reference === 'string' && reference !== '') seen?.(reference, request.email);
      return {
        status: exists ? 'exists' : 'success',
        reference,
        email: request.email,
        message: exists ? `A user with e-mail ${request.email} already exists; nothing was created.` : result.message,
      };
    },
  };
}
