/**
 * Reads a stored value (as REST v3 spells it) as a public enum value through an explicit map. A
 * value the map does not know is a row no code of ours wrote: an error that says so, never a
 * guess.
 */
export function storedEnum<S extends string | number, E>(what: string, map: Record<S, E>) {
  return (value: S): E => {
    if (!Object.prototype.hasOwnProperty.call(map, value))
      throw new Error(`Unknown stored ${what}: ${JSON.stringify(value)} has no enum value`);
    return map[value];
  };
}
