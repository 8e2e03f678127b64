import { ErrorCode } from '@hub/common';
import {
  isValidBranchName,
  pathFromName,
  validateProjectAttributes,
  visibilityOf,
  type ProjectAttributes,
} from './project-attributes';

const fieldsOf = (attrs: ProjectAttributes, creating = false) => {
  try {
    validateProjectAttributes(attrs, creating);
    return {};
  } catch (error) {
    const { code, fields } = (error as { extensions: { code: string; fields: Record<string, string[]> } }).extensions;
    expect(code).toBe(ErrorCode.VALIDATION);
    return fields;
  }
};

describe('project attributes', () => {
  it.each([
    ['My Project', 'my-project'],
    ['  Spaces  and__under ', 'spaces-and__under'],
    ['Ünïcödé Name', 'unicode-name'],
    ['a.b/c', 'a-b-c'],
  ])('derives the path of %j as %j', (name, path) => {
    expect(pathFromName(name)).toBe(path);
  });

  it('lets visibility_level win over public', () => {
    expect(visibilityOf({ public: true, visibilityLevel: 10 })).toBe(10);
    expect(visibilityOf({ public: true })).toBe(20);
    // GitLab 7.14 mapped only public=true to a level; false sets none.
    expect(visibilityOf({ public: false })).toBeUndefined();
    expect(visibilityOf({})).toBeUndefined();
  });

  it("words a bad name as GitLab 7.14's project_name_regex_message", () => {
    expect(fieldsOf({ name: '-starts-with-dash' })).toEqual({
      name: ["can contain only letters, digits, '_', '.', dash and space. It must start with letter, digit or '_'."],
    });
  });

  it('requires a name on create', () => {
    expect(fieldsOf({}, true)).toEqual({ name: ["can't be blank"] });
  });

  it.each<[ProjectAttributes, string]>([
    [{ name: '-starts-with-dash' }, 'name'],
    [{ path: '-x' }, 'path'],
    [{ path: 'repo.git' }, 'path'],
    [{ path: '..' }, 'path'],
    [{ path: 'a/b' }, 'path'],
    [{ visibilityLevel: 5 }, 'visibility_level'],
    [{ defaultBranch: '--upload-pack=x' }, 'default_branch'],
    [{ defaultBranch: 'a..b' }, 'default_branch'],
    [{ importUrl: 'file:///etc/passwd' }, 'import_url'],
  ])('refuses %j in %s', (attrs, field) => {
    expect(Object.keys(fieldsOf(attrs))).toEqual([field]);
  });

  it('accepts ordinary values', () => {
    expect(
      fieldsOf({ name: 'Hub_1.0 beta', path: 'hub_1.0-beta', defaultBranch: 'release/1.x', visibilityLevel: 20 }, true),
    ).toEqual({});
  });

  it.each(['main', 'feature/x', 'v1.2'])('accepts the branch %s', (name) => expect(isValidBranchName(name)).toBe(true));
  it.each(['', '-x', 'a b', 'x.lock', '.hidden', 'a\u0000b', 'refs/../x'])('refuses the branch %j', (name) =>
    expect(isValidBranchName(name)).toBe(false),
  );
});
