// The contract of services/identity: the events it emits, and its internal lookups. Owned by identity.
import { z } from 'zod';
import { defineEvents, payload } from './define';
import { id } from './shared';

const user = payload({ user_id: id, username: z.string(), email: z.string(), name: z.string(), is_admin: z.boolean() });

export const identityEvents = defineEvents('identity', {
  'user.created': user,
  'user.updated': user,
  'user.deleted': user,
  'user.blocked': user,
  'user.unblocked': user,
  /** The private token changed: cached principals of the user must go. */
  'user.private_token_reset': user,
});
