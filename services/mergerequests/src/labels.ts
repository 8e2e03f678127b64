import { DomainError, ErrorCode } from '@hub/common';

/** GitLab's Label title rule: present, and no `&`, `?` or `,` (app/models/label.rb). */
const TITLE = /^[^&?,]+$/;

/**
 * The label names a merge request keeps: each stripped of surrounding blanks, distinct, by name
 * (GitLab's label_names order). A name GitLab would not save is refused the way its API refused
 * it before touching the merge request (lib/api/helpers.rb validate_label_params):
 * 400 `{"message": {"labels": {"<name>": {"title": [...]}}}}`.
 */
export function labelNames(names: readonly string[]): string[] {
  const errors: Record<string, { title: string[] }> = {};
  const titles = names.map((name) => name.trim());
  for (const title of titles) {
    const problems = [];
    if (title === '') problems.push("can't be blank");
    if (!TITLE.test(title)) problems.push('is invalid');
    if (problems.length) errors[title] = { title: problems };
  }
  if (Object.keys(errors).length) throw new DomainError(ErrorCode.VALIDATION, 'Validation failed', { fields: { labels: errors } });
  return [...new Set(titles)].sort();
}
