import { createHash } from 'node:crypto';

/**
 * A weak entity tag over `parts`: answers equal in meaning, not byte for byte (the same JSON may
 * be written with other whitespace by another replica's version), so weak (RFC 9110 §8.8.1).
 */
export function entityTag(...parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return `W/"${hash.digest('base64url').slice(0, 32)}"`;
}

const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/**
 * Whether If-None-Match names `tag`, by weak comparison (RFC 9110 §13.1.2): the W/ prefixes are
 * ignored, `*` matches any current answer, and a list matches when one of its tags does.
 */
export function matchesIfNoneMatch(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  const wanted = opaque(tag);
  for (const candidate of header.split(',')) {
    const trimmed = candidate.trim();
    if (trimmed === '*' || opaque(trimmed) === wanted) return true;
  }
  return false;
}
