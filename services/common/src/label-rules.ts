import type { GraphQLResolveInfo } from 'graphql';
import { DomainError, ErrorCode } from './errors';
import { mutationPayload, type MutationInput } from './mutation-payloads';

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

/** GitLab's answer to refused names: 400 `{"message": {"labels": {"<name>": {"title": [...]}}}}`. */
class LabelNamesRefusal extends DomainError {
  constructor(errors: LabelNameErrors) {
    super(ErrorCode.VALIDATION, 'Validation failed', { fields: { labels: errors } });
  }
}
const labelNamesRefused = (errors: LabelNameErrors) => new LabelNamesRefusal(errors);

/** checkLabelNames, throwing GitLab's 400 when any name is refused. */
export function labelNames(names: readonly string[]): string[] {
  const { names: titles, errors } = checkLabelNames(names);
  if (Object.keys(errors).length) throw labelNamesRefused(errors);
  return titles;
}

/**
 * mutationPayload for the mutations that take label names (issues, merge requests). A refusal of
 * names is GitLab's nested hash (`{"labels": {"a&b": {"title": ["is invalid"]}}}`), which a
 * UserError (one attribute, one message) cannot carry: it stays the GraphQL error it was
 * (VALIDATION, the hash in extensions.fields), which the facade answers as v3 did. Every other
 * refusal goes to the payload's errors.
 */
export async function mutationPayloadWithLabelNames<K extends string, T>(
  entity: K,
  input: MutationInput,
  info: GraphQLResolveInfo | undefined,
  command: () => Promise<T> | T,
) {
  let refusal: LabelNamesRefusal | undefined;
  const payload = await mutationPayload(entity, input, info, async () => {
    try {
      return await command();
    } catch (error) {
      if (!(error instanceof LabelNamesRefusal)) throw error;
      refusal = error;
      return null;
    }
  });
  if (refusal) throw refusal;
  return payload;
}
