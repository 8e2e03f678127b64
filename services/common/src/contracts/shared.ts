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
/**
 * An issue's or merge request's assignee as stored: the id as the client sent it, as GitLab kept
 * it, 0 and negatives included. No user has those, so the assignee shows as none; a contract that
 * refused them made every later event of the issuable unreadable and every note on the merge
 * request a 500.
 */
export const assigneeId = lookupId;
/** Ids a lookup is asked for in one request: at most 1,000. */
export const lookupIds = z.array(lookupId).max(1000);
