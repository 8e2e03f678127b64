import { z } from 'zod';

/** Ids as producers write them: positive 32-bit integers. */
export const id = z
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);
/** Who acted; null for changes no user made (a system note, a seed). */
export const actor = { actor_id: id.nullable(), actor_username: z.string().nullable() };
/** ISO 8601 text. */
export const timestamp = z.string();

/** A list of ids in one internal request: at most 1,000. */
export const ids = z.array(id).max(1000);
