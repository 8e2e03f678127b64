import type { Params } from './params';

/**
 * v3's `labels` on issues and merge requests: one comma-separated string, split as Ruby's
 * String#split(',') did (trailing empty pieces dropped; others kept, for the service to refuse as
 * blank names). A blank value means none: create adds nothing, update removes them all (GitLab's
 * update tested `params[:labels]`, not its presence).
 */
export function labelNamesParam(p: Params): string[] | undefined {
  if (p.sentEmpty('labels')) return [];
  const text = p.string('labels');
  if (text === undefined) return undefined;
  if (text.trim() === '') return [];
  const names = text.split(',');
  while (names.length && names[names.length - 1] === '') names.pop();
  return names;
}

/** `labels` as a list filter: the names given, surrounding blanks ignored (labels are kept stripped). */
export function labelFilterParam(p: Params): string[] | null {
  const text = p.string('labels');
  if (text === undefined) return null;
  return text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}
