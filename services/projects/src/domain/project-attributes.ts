import { FieldErrorCollector, VISIBILITY_LEVELS, Visibility } from '@hub/common';

// GitLab 7.14's Gitlab::Regex project name and path rules, with its messages.
const NAME = /^[\p{L}\p{N}_][\p{L}\p{N}\p{Pd}_. ]*$/u;
const NAME_MESSAGE =
  "can contain only letters, digits, '_', '.', dash and space. It must start with letter, digit or '_'.";
const PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*$/;
const PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.git'";
const MAX_LENGTH = 255;

/**
 * The attributes a create or update may carry, as v3 names them: the resolvers turn the schema's
 * inputs (a Visibility, or v3's number) into these.
 */
export interface ProjectAttributes {
  name?: string | null;
  path?: string | null;
  description?: string | null;
  defaultBranch?: string | null;
  issuesEnabled?: boolean | null;
  mergeRequestsEnabled?: boolean | null;
  wikiEnabled?: boolean | null;
  snippetsEnabled?: boolean | null;
  public?: boolean | null;
  visibilityLevel?: number | null;
  importUrl?: string | null;
  archived?: boolean | null;
}

/** GitLab's `parameterize`: the path a name gives when no path is sent. */
export function pathFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * `visibility_level` wins over `public`; `public` = true alone means 20 (the spec's one sentence on
 * it). `public` = false means nothing: GitLab 7.14's map_public_to_visibility_level set a level
 * only for true, so false neither made a project private nor needed the right to.
 */
export function visibilityOf(attrs: ProjectAttributes): number | undefined {
  if (attrs.visibilityLevel !== undefined && attrs.visibilityLevel !== null) return attrs.visibilityLevel;
  if (attrs.public === true) return Visibility.PUBLIC;
  return undefined;
}

/**
 * A branch name git accepts (git check-ref-format's rules for one branch), so a default branch can
 * never smuggle an option or a path into a git command later.
 */
export function isValidBranchName(name: string): boolean {
  if (name.length === 0 || name.length > MAX_LENGTH) return false;
  if (name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name === '@')
    return false;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name) || name.includes('..') || name.includes('@{') || name.includes('//'))
    return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

const IMPORT_SCHEMES = new Set(['http:', 'https:', 'git:']);

/** Per-field checks of the values given; `creating` requires a name. */
export function validateProjectAttributes(attrs: ProjectAttributes, creating: boolean): void {
  const errors = new FieldErrorCollector();
  if (attrs.name !== undefined || creating) {
    const name = attrs.name ?? '';
    if (name.trim() === '') errors.add('name', "can't be blank");
    else if (name.length > MAX_LENGTH) errors.add('name', `is too long (maximum is ${MAX_LENGTH} characters)`);
    else if (!NAME.test(name)) errors.add('name', NAME_MESSAGE);
  }
  if (attrs.path !== undefined && attrs.path !== null) {
    const path = attrs.path;
    if (path === '') errors.add('path', "can't be blank");
    else if (path.length > MAX_LENGTH) errors.add('path', `is too long (maximum is ${MAX_LENGTH} characters)`);
    else if (!PATH.test(path) || /\.(git|atom)$/i.test(path) || path === '.' || path === '..')
      errors.add('path', PATH_MESSAGE);
  }
  const visibility = visibilityOf(attrs);
  if (visibility !== undefined && !VISIBILITY_LEVELS.includes(visibility))
    errors.add('visibility_level', 'is not included in the list');
  if (attrs.defaultBranch !== undefined && attrs.defaultBranch !== null && !isValidBranchName(attrs.defaultBranch)) {
    errors.add('default_branch', 'is invalid');
  }
  if (attrs.importUrl !== undefined && attrs.importUrl !== null) {
    let scheme: string | null = null;
    try {
      scheme = new URL(attrs.importUrl).protocol;
    } catch {
      // reported below
    }
    if (!scheme || !IMPORT_SCHEMES.has(scheme)) errors.add('import_url', 'is not a valid http, https or git URL');
  }
  if (attrs.description !== undefined && attrs.description !== null && attrs.description.length > 2000) {
    errors.add('description', 'is too long (maximum is 2000 characters)');
  }
  errors.throwIfAny();
}
