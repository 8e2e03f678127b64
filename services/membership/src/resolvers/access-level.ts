import { AccessLevel as V3Level } from '@hub/common';
import type { AccessLevel } from '../generated/graphql';

/** The public schema's AccessLevel for each of v3's numbers (common/access.ts, GitLab's Gitlab::Access). */
const ACCESS_LEVEL: ReadonlyMap<number, AccessLevel> = new Map<number, AccessLevel>([
  [V3Level.GUEST, 'GUEST'],
  [V3Level.REPORTER, 'REPORTER'],
  [V3Level.DEVELOPER, 'DEVELOPER'],
  [V3Level.MASTER, 'MASTER'],
  [V3Level.OWNER, 'OWNER'],
]);

/** A membership's level as the public enum; a stored number this map does not know is an error that names it, never a guess. */
export const accessLevelOf = (member: { accessLevel: number; userId: number }, of: string): AccessLevel => {
  const level = ACCESS_LEVEL.get(member.accessLevel);
  if (level === undefined)
    throw new Error(
      `The membership of user ${member.userId} in ${of} has an unknown access level: ${member.accessLevel}`,
    );
  return level;
};
