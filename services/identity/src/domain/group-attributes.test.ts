import { groupProblems } from './group-attributes';

const free = { name: false, path: false };

describe('groupProblems', () => {
  it('takes a plain group', () => {
    expect(groupProblems({ name: 'Core Team', path: 'core-team', description: '' }, free)).toBeNull();
  });

  it('says what GitLab said of bad names and paths, per field', () => {
    expect(groupProblems({ name: 'a/b', path: '-x', description: '' }, free)).toEqual({
      name: ["can contain only letters, digits, '_', '.', dash and space."],
      path: [expect.stringContaining("can contain only letters, digits, '_', '-' and '.'")],
    });
    expect(groupProblems({ name: 'Admins', path: 'admin', description: '' }, free)).toEqual({ path: ['is reserved'] });
    expect(groupProblems({ name: 'x', path: 'x.git', description: 'd'.repeat(256) }, free)).toEqual({
      description: ['is too long (maximum is 255 characters)'],
      path: [expect.stringContaining('Cannot start with')],
    });
  });

  it('refuses a taken name or path', () => {
    expect(groupProblems({ name: 'Team', path: 'team', description: '' }, { name: true, path: true })).toEqual({
      name: ['has already been taken'],
      path: ['has already been taken'],
    });
  });
});
