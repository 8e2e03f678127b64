import { isGlobalIdReference, parseGlobalId, referencedDatabaseId, requireGlobalId, toGlobalId } from './global-ids';

describe('global ids', () => {
  it('round-trips every well-formed id', () => {
    expect(toGlobalId('Project', 12)).toBe('gid://hub/Project/12');
    expect(parseGlobalId(toGlobalId('MergeRequest', 9007199254740991))).toEqual({
      type: 'MergeRequest',
      id: 9007199254740991,
    });
  });

  it.each([
    ['another type', 'gid://hub/Commit/12'],
    ['another app', 'gid://gitlab/Project/12'],
    ['a zero id', 'gid://hub/Project/0'],
    ['a leading zero', 'gid://hub/Project/012'],
    ['a negative id', 'gid://hub/Project/-1'],
    ['beyond the safe range', 'gid://hub/Project/9007199254740993'],
    ['trailing text', 'gid://hub/Project/12/x'],
    ['a prototype key', 'gid://hub/constructor/1'],
    ['a bare number', '12'],
  ])('refuses %s', (_why, value) => {
    expect(parseGlobalId(value)).toBeNull();
    expect(() => requireGlobalId(value, 'id')).toThrow(
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', argument: 'id' }) }),
    );
  });

  it('reads references by database id or by global id of the right type only', () => {
    expect(referencedDatabaseId('Issue', { databaseId: 4 })).toBe(4);
    expect(referencedDatabaseId('Issue', { id: 'gid://hub/Issue/4' })).toBe(4);
    expect(referencedDatabaseId('Issue', { id: 'gid://hub/Project/4' })).toBeNull();
    expect(referencedDatabaseId('Issue', { id: 'nonsense' })).toBeNull();
    expect(isGlobalIdReference({ id: 'gid://hub/Issue/4' })).toBe(true);
    expect(isGlobalIdReference({ databaseId: 4 })).toBe(false);
  });
});
