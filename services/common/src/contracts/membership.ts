// The contract of services/membership: the events it emits. Owned by membership.
import { z } from 'zod';
import { defineEvents, payload } from './define';
import { actor, id } from './shared';

const member = payload({ project_id: id, user_id: id, user_username: z.string().nullable(), access_level: z.number().int(), ...actor });

export const membershipEvents = defineEvents('membership', {
  'member.added': member,
  'member.updated': member,
  'member.removed': member,
});
