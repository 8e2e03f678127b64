import { accessLevelEnumOf, publicEnum, userStateEnumOf, visibilityEnumOf } from './public-enums';

describe('public enums', () => {
  it('maps stored values to enum values', () => {
    expect([0, 10, 20].map(visibilityEnumOf)).toEqual(['PRIVATE', 'INTERNAL', 'PUBLIC']);
    expect([10, 20, 30, 40, 50].map(accessLevelEnumOf)).toEqual(['GUEST', 'REPORTER', 'DEVELOPER', 'MASTER', 'OWNER']);
    expect(userStateEnumOf('blocked')).toBe('BLOCKED');
  });

  it('fails on a value without a mapping, naming the enum and the value, prototype keys included', () => {
    expect(() => visibilityEnumOf(5)).toThrow('Visibility has no value for 5');
    expect(() => userStateEnumOf('constructor')).toThrow('UserState has no value for "constructor"');
    expect(() => publicEnum('E', { a: 'A' })('toString')).toThrow('E has no value for "toString"');
  });
});
