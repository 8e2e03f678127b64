import { type DomainError } from '@hub/common';
import { validateUserAttributes, type UserAttributes } from './user-attributes';

const fieldsOf = (attrs: UserAttributes, creating = true) => {
  try {
    validateUserAttributes(attrs, creating);
    return null;
  } catch (error) {
    return (error as DomainError).extensions.fields as Record<string, string[]> | undefined;
  }
};
const valid = { email: 'a@example.com', password: 'long-enough', username: 'a.b_c-d', name: 'A' };

describe('validateUserAttributes', () => {
  it('accepts valid attributes', () => {
    expect(fieldsOf(valid)).toBeNull();
  });

  it('requires everything on create and collects every problem', () => {
    expect(fieldsOf({})).toEqual({
      username: ["can't be blank"],
      name: ["can't be blank"],
      email: ["can't be blank"],
      password: ['is too short (minimum is 8 characters)'],
    });
  });

  it('checks only what an update carries', () => {
    expect(fieldsOf({ name: 'New name' }, false)).toBeNull();
    expect(fieldsOf({ email: 'bad' }, false)).toEqual({ email: ['is invalid'] });
  });

  it.each(['-dash', 'has space', 'x.git', 'ünicode', 'a/b'])('refuses the username %p', (username) => {
    expect(fieldsOf({ ...valid, username })?.username).toBeDefined();
  });

  it('refuses reserved top-level names', () => {
    expect(fieldsOf({ ...valid, username: 'OAuth' })).toEqual({ username: ['is reserved'] });
  });
});
