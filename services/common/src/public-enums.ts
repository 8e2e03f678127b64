/**
 * The public schema's enums over values as they are stored and as REST v3 writes them
 * ('opened', 30, 'blob'). Each enum's map is written out: a stored value without one is a bug, and
 * fails the field with a message that names it, rather than passing through unchecked.
 */
export function publicEnum<Stored extends string | number, Public extends string | null>(
  name: string,
  map: Record<Stored, Public>,
): (stored: Stored | string | number) => Public {
  return (stored) => {
    if (!Object.hasOwn(map, stored)) throw new Error(`${name} has no value for ${JSON.stringify(stored)}`);
    return map[stored as Stored];
  };
}

/** Who may see a project or snippet: v3's visibility_level numbers. */
export const visibilityEnumOf = publicEnum('Visibility', { 0: 'PRIVATE', 10: 'INTERNAL', 20: 'PUBLIC' } as const);

/** A membership's level: v3's access_level numbers. */
export const accessLevelEnumOf = publicEnum('AccessLevel', {
  10: 'GUEST',
  20: 'REPORTER',
  30: 'DEVELOPER',
  40: 'MASTER',
  50: 'OWNER',
} as const);

/** An account's state. */
export const userStateEnumOf = publicEnum('UserState', { active: 'ACTIVE', blocked: 'BLOCKED' } as const);
