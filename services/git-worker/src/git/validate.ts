import { gitError } from './errors';

/**
 * Every ref, sha and path from a request passes here before git sees it. Refs that look like
 * options, carry control characters or escape with `..` are refused; commands also put
 * `--end-of-options` or `--` before anything that came from a request.
 */
const CONTROL = /[\x00-\x1f\x7f]/;

/** A branch, tag or commit sha as a request names it. */
export function validateRef(ref: string, field = 'ref'): string {
  if (
    ref.length === 0 ||
    ref.length > 1024 ||
    ref.startsWith('-') ||
    CONTROL.test(ref) ||
    ref.includes('..') ||
    ref.includes('@{') ||
    /[\s~^:?*[\\]/.test(ref) ||
    ref.startsWith('/') ||
    ref.endsWith('/') ||
    ref.endsWith('.') ||
    ref.endsWith('.lock')
  ) {
    throw gitError('INVALID_ARGUMENT', `${field} is invalid`, field);
  }
  return ref;
}

/** A full object id (sha-1). */
export function validateOid(oid: string, field = 'sha'): string {
  if (!/^[0-9a-f]{40}$/.test(oid)) throw gitError('INVALID_ARGUMENT', `${field} is invalid`, field);
  return oid;
}

/**
 * A path inside the tree: normalised (no empty, `.` or `..` segments, no leading or trailing
 * slash), so it cannot leave the tree or be read as an option. Empty means the root.
 */
export function validatePath(path: string, field = 'path'): string {
  if (CONTROL.test(path) || path.length > 4096) throw gitError('INVALID_ARGUMENT', `${field} is invalid`, field);
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) throw gitError('INVALID_ARGUMENT', `${field} is invalid`, field);
  return segments.join('/');
}

/** A name or email for a commit or tag header: no angle brackets or line breaks to break its format. */
export const signatureText = (text: string) => text.replace(/[<>\r\n\0]/g, '').trim();

/** A new tag's name, by git's own rules for refs/tags/<name>. */
export function validateTagName(name: string): string {
  try {
    validateRef(name, 'tag_name');
  } catch {
    throw gitError('INVALID_ARGUMENT', 'tag_name is invalid', 'tag_name');
  }
  return name;
}

/** A branch name as it may appear in a ref (no sha-looking restriction). */
export const validateBranchName = (name: string) => validateRef(name, 'branch');
