import { createVersionStamps, VERSION_TTL_S, type Redis } from '@hub/common';

/** Reads versions in one round trip; a key never advanced yet starts with a fresh stamp. */
const READ_OR_START = `
local versions = {}
for i, key in ipairs(KEYS) do
  local version = redis.call('GET', key)
  if not version then
    version = ARGV[1] .. i
    redis.call('SET', key, version, 'EX', ARGV[2])
  end
  versions[i] = version
end
return versions`;

export interface VersionReader {
  /** The versions of `keys`, in order; null while Redis cannot say (answers then go without). */
  read(keys: readonly string[]): Promise<string[] | null>;
}

/**
 * The versions events advance (common/resource-versions.ts), as the facade reads them. Its own
 * connection without an offline queue: while Redis is away a read fails at once and the request
 * is answered in full, with a tag of its body.
 */
export function createVersionReader(redis: Redis): VersionReader {
  redis.defineCommand('readVersions', { lua: READ_OR_START });
  const newStamp = createVersionStamps();
  const readVersions = (redis as unknown as { readVersions: (...args: unknown[]) => Promise<string[]> }).readVersions;
  return {
    async read(keys) {
      if (keys.length === 0) return [];
      try {
        return await readVersions.call(redis, keys.length, ...keys, newStamp(), VERSION_TTL_S);
      } catch {
        return null;
      }
    },
  };
}
