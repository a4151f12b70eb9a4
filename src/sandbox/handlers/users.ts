/** Handlers of the users: create, exists, and the list (paged by `pages`, optionally within a window). */
import { createdDays } from '../created-range.js';
import { newReference } from '../secrets.js';
import * as serialize from '../serialize.js';
import { ok } from './common.js';
import type { HandlersOf } from './types.js';

/** Users list page size (`pages` is 1-based). */
export const USERS_PAGE_SIZE = 50;

export const USER_HANDLERS: HandlersOf<'createUser' | 'userExists' | 'listUsers'> = {
  createUser: {
    run: (ctx) => {
      const { body, caller } = ctx;
      const id = ctx.repos.users.create({
        org_id: caller.org_id,
        firstname: body.firstname,
        lastname: body.lastname,
        email: body.email,
        phone: body.phone,
        gender: body.gender,
        reference: newReference('user'),
        source: 'api',
        now: ctx.stamp,
      });
      if (id === undefined) {
        const existing = ctx.repos.users.findByEmail(caller.org_id, body.email);
        if (!existing) throw new Error('e-mail reported taken but no user has it');
        return {
          status: 'exists',
          message: 'A user with this email already exists',
          data: serialize.userCreateReply(existing),
        };
      }
      const user = ctx.repos.users.findInOrg(caller.org_id, id);
      if (!user) throw new Error(`user ${id} vanished inside its own transaction`);
      return ok('User created successfully', serialize.userCreateReply(user));
    },
  },

  userExists: {
    run: (ctx) => {
      const found = ctx.repos.users.findByEmail(ctx.caller.org_id, ctx.query.email) !== undefined;
      return ok(found ? 'User exists' : 'User does not exist', found);
    },
  },

  listUsers: {
    inspect: ({ query }) =>
      isDate(query.start) && isDate(query.end) && query.end < query.start ? ['end (must not be before start)'] : [],
    run: (ctx) => {
      const { start, end, pages = 1 } = ctx.query;
      const offset = (pages - 1) * USERS_PAGE_SIZE;
      if (!Number.isSafeInteger(offset)) return ok('Users retrieved successfully', []);
      // A page is a seek, the same cost at any page and any size: without a window in id order,
      // within one newest first (UsersRepo.list).
      if (start === undefined && end === undefined) {
        const page = ctx.repos.users.page(ctx.caller.org_id, offset, USERS_PAGE_SIZE);
        return ok('Users retrieved successfully', page.map(serialize.userListItem));
      }
      const rows = ctx.repos.users.list(ctx.caller.org_id, createdDays(start, end), offset, USERS_PAGE_SIZE);
      return ok('Users retrieved successfully', rows.map(serialize.userListItem));
    },
  },
};

function isDate(value: unknown): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
}
