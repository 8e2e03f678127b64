import { invalid } from './errors';

// Label rules, pure: notes keeps labels, and merge requests (another service) check the names they
// are given against the same rules before asking notes for anything.

/** GitLab's Label::DEFAULT_COLOR, given to labels an issue or merge request makes by naming them. */
export const DEFAULT_LABEL_COLOR = '#428BCA';

/**
 * Label#title: GitLab's column was a string(255), and later versions validate that length. A longer
 * name would also outgrow the (project_id, title) index entry, which Postgres refuses past ~2.7 KB.
 */
export const LABEL_TITLE_MAX = 255;

/** Label#title: no `&`, `?` or `,` (app/models/label.rb). */
const TITLE = /^[^&?,]+$/;
/** Label#color: `\A#[0-9A-Fa-f]{6}\Z` (Ruby's \Z also lets one final newline through). */
const COLOR = /^#[0-9A-Fa-f]{6}\n?$/;

/** The model's messages for a title, in its validation order (presence, format, then length). */
export function titleProblems(title: string): string[] {
  const problems: string[] = [];
  if (title.trim() === '') problems.push("can't be blank");
  if (!TITLE.test(title)) problems.push('is invalid');
  // Ruby counts characters, not UTF-16 code units.
  if ([...title].length > LABEL_TITLE_MAX) problems.push(`is too long (maximum is ${LABEL_TITLE_MAX} characters)`);
  return problems;
}

export const colorProblems = (color: string): string[] => (COLOR.test(color) ? [] : ['is invalid']);

export type LabelNameErrors = Record<string, { title: string[] }>;

/**
 * The label names an issue or merge request is given: each stripped of surrounding blanks,
 * distinct, sorted (GitLab's label_names order). `errors` holds, per refused name, what GitLab's
 * validate_label_params reported before it touched the issue or merge request.
 */
export function checkLabelNames(names: readonly string[]): { names: string[]; errors: LabelNameErrors } {
  const errors: LabelNameErrors = {};
  const titles = names.map((name) => name.trim());
  for (const title of titles) {
    const problems = titleProblems(title);
    if (problems.length) errors[title] = { title: problems };
  }
  return { names: [...new Set(titles)].sort(), errors };
}

/** checkLabelNames, throwing GitLab's 400 when any name is refused. */
export function labelNames(names: readonly string[]): string[] {
  const { names: titles, errors } = checkLabelNames(names);
  // GitLab's answer to refused names: 400 `{"message": {"labels": {"<name>": {"title": [...]}}}}`.
  if (Object.keys(errors).length) throw invalid({ labels: errors } as never);
  return titles;
}
