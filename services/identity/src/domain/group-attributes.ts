import { RESERVED, USERNAME, USERNAME_MESSAGE } from './user-attributes';

export interface GroupAttributes {
  name: string;
  path: string;
  description?: string | null;
}

// GitLab's namespace_name_regex: letters, digits, '_', '.', dashes and spaces.
const NAME = /^[\p{L}\p{N}\p{Pd}_. ]*$/u;
const NAME_MESSAGE = "can contain only letters, digits, '_', '.', dash and space.";

/**
 * What GitLab's Namespace validations would say of a new group, per field, or null when it may
 * be saved. A group's path follows the same rule as a username: both are namespace paths.
 */
export function groupProblems(
  group: { name: string; path: string; description: string },
  taken: { name: boolean; path: boolean },
): Record<string, string[]> | null {
  const problems: Record<string, string[]> = {};
  const add = (field: string, message: string) => (problems[field] ??= []).push(message);
  if (!group.name) add('name', "can't be blank");
  if (group.name.length > 255) add('name', 'is too long (maximum is 255 characters)');
  if (!NAME.test(group.name)) add('name', NAME_MESSAGE);
  if (taken.name) add('name', 'has already been taken');
  if (group.description.length > 255) add('description', 'is too long (maximum is 255 characters)');
  if (!group.path) add('path', "can't be blank");
  if (group.path.length > 255) add('path', 'is too long (maximum is 255 characters)');
  if (group.path && (!USERNAME.test(group.path) || /\.git$/i.test(group.path))) add('path', USERNAME_MESSAGE);
  if (RESERVED.has(group.path.toLowerCase())) add('path', 'is reserved');
  if (taken.path) add('path', 'has already been taken');
  return Object.keys(problems).length ? problems : null;
}
