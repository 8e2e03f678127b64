import { z } from 'zod';

const MAX_INT32 = 2 ** 31 - 1;

/** Ids as producers write them: positive 32-bit integers. */
export const id = z.number().int().positive().max(MAX_INT32);
/** Who acted; null for changes no user made (a system note, a seed). */
export const actor = { actor_id: id.nullable(), actor_username: z.string().nullable() };
/** ISO 8601 text. */
export const timestamp = z.string();

/**
 * An id a lookup is asked for: any 32-bit integer, because callers pass on what their clients
 * sent (a GraphQL Int, a v3 integer parameter), and those carry 0 and negatives. No record has
 * such an id, so the owner finds none and answers as for any id it never gave out: the caller
 * then says "not found" in its own words, as GitLab did, where a refused request was a 500.
 */
export const lookupId = z
  .number()
  .int()
  .min(-MAX_INT32 - 1)
  .max(MAX_INT32);
/** Ids a lookup is asked for in one request: at most 1,000. */
export const lookupIds = z.array(lookupId).max(1000);
