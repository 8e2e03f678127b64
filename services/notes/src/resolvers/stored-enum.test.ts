import { storedEnum } from './stored-enum';

describe('storedEnum', () => {
  const state = storedEnum<string, 'ACTIVE' | 'CLOSED'>('milestone state', { active: 'ACTIVE', closed: 'CLOSED' });
  const visibility = storedEnum<number, string | null>('visibility level', { 0: 'PRIVATE', 20: null });

  it('maps each stored value it knows, null included', () => {
    expect(state('active')).toBe('ACTIVE');
    expect(state('closed')).toBe('CLOSED');
    expect(visibility(0)).toBe('PRIVATE');
    expect(visibility(20)).toBeNull();
  });

  it('refuses a value it does not know, saying which, rather than guessing (no upper-casing, no prototype keys)', () => {
    expect(() => state('reopened')).toThrow('Unknown stored milestone state: "reopened" has no enum value');
    expect(() => state('ACTIVE')).toThrow('Unknown stored milestone state: "ACTIVE"');
    expect(() => state('toString')).toThrow('Unknown stored milestone state: "toString"');
    expect(() => visibility(10)).toThrow('Unknown stored visibility level: 10 has no enum value');
  });
});
