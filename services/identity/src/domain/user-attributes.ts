import { FieldErrorCollector } from '@hub/common';
import type { UserWritable } from '../db/users';

/** Attributes a create or update request may carry (GraphQL input, camelCase). */
export interface UserAttributes {
  email?: string | null;
  password?: string | null;
  username?: string | null;
  name?: string | null;
  isAdmin?: boolean | null;
  bio?: string | null;
  skype?: string | null;
  linkedin?: string | null;
  twitter?: string | null;
  websiteUrl?: string | null;
  projectsLimit?: number | null;
  canCreateGroup?: boolean | null;
  externUid?: string | null;
  provider?: string | null;
}

// GitLab's namespace rule: letters, digits, '_', '-' and '.', not starting with '-', not ending in '.git'.
export const USERNAME = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*$/;
export const USERNAME_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.git'";
// Top-level paths the web and API routes use; a namespace of that name would shadow them.
export const RESERVED = new Set(
  'admin api assets dashboard files groups help hooks issues merge_requests notes oauth profile projects public repository search services snippets s teams u unsubscribes users all ci'.split(
    ' ',
  ),
);
const EMAIL = /^[^@\s]+@[^@\s]+$/;

/**
 * Checks the attributes present (all required ones on create) the way GitLab's User model did,
 * collecting every problem per field. Uniqueness is the database's job (409 in the service).
 */
export function validateUserAttributes(attrs: UserAttributes, creating: boolean): void {
  const errors = new FieldErrorCollector();
  const present = (v: unknown) => v !== undefined && v !== null;
  if (creating || present(attrs.username)) {
    const username = attrs.username ?? '';
    if (!username.trim()) errors.add('username', "can't be blank");
    else {
      if (username.length > 255) errors.add('username', 'is too long (maximum is 255 characters)');
      if (!USERNAME.test(username) || /\.git$/i.test(username)) errors.add('username', USERNAME_MESSAGE);
      if (RESERVED.has(username.toLowerCase())) errors.add('username', 'is reserved');
    }
  }
  if (creating || present(attrs.name)) {
    const name = attrs.name ?? '';
    if (!name.trim()) errors.add('name', "can't be blank");
    else if (name.length > 255) errors.add('name', 'is too long (maximum is 255 characters)');
  }
  if (creating || present(attrs.email)) {
    const email = attrs.email ?? '';
    if (!email.trim()) errors.add('email', "can't be blank");
    else if (!EMAIL.test(email) || email.length > 255) errors.add('email', 'is invalid');
  }
  if (creating || present(attrs.password)) {
    const password = attrs.password ?? '';
    if (password.length < 8) errors.add('password', 'is too short (minimum is 8 characters)');
    else if (password.length > 128) errors.add('password', 'is too long (maximum is 128 characters)');
  }
  if (present(attrs.projectsLimit) && attrs.projectsLimit! < 0) {
    errors.add('projects_limit', 'must be greater than or equal to 0');
  }
  if (present(attrs.externUid) !== present(attrs.provider)) {
    errors.add(present(attrs.provider) ? 'extern_uid' : 'provider', "can't be blank");
  }
  errors.throwIfAny();
}

/** The columns to write for the attributes given; the password is hashed by the caller. */
export function userColumns(attrs: UserAttributes): UserWritable {
  const columns: UserWritable = {};
  const copy = <K extends keyof UserWritable>(key: K, value: UserWritable[K] | null | undefined) => {
    if (value !== undefined && value !== null) columns[key] = value;
  };
  copy('email', attrs.email?.trim());
  copy('username', attrs.username?.trim());
  copy('name', attrs.name?.trim());
  copy('isAdmin', attrs.isAdmin);
  copy('bio', attrs.bio);
  copy('skype', attrs.skype);
  copy('linkedin', attrs.linkedin);
  copy('twitter', attrs.twitter);
  copy('websiteUrl', attrs.websiteUrl);
  copy('projectsLimit', attrs.projectsLimit);
  copy('canCreateGroup', attrs.canCreateGroup);
  copy('externUid', attrs.externUid);
  copy('provider', attrs.provider);
  return columns;
}
