import { PrincipalCache } from './principal-cache';

describe('PrincipalCache', () => {
  it('expires entries after the TTL', () => {
    const cache = new PrincipalCache<string>(1000);
    cache.set('k', 'v', [1], 0);
    expect(cache.get('k', 999)).toBe('v');
    expect(cache.get('k', 1000)).toBeUndefined();
  });

  it('drops the entries of a changed user and every negative entry, keeping the rest', () => {
    const cache = new PrincipalCache<string>(60_000);
    cache.set('alice', 'a', [1]);
    cache.set('admin-as-alice', 'a', [9, 1]);
    cache.set('bob', 'b', [2]);
    cache.set('bad-token', 'none', []);
    cache.invalidateUser(1);
    expect(cache.get('alice')).toBeUndefined();
    expect(cache.get('admin-as-alice')).toBeUndefined();
    expect(cache.get('bad-token')).toBeUndefined();
    expect(cache.get('bob')).toBe('b');
  });

  it('stays within its size bound, evicting the oldest', () => {
    const cache = new PrincipalCache<number>(60_000, 2);
    cache.set('a', 1, []);
    cache.set('b', 2, []);
    cache.set('c', 3, []);
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toBe(3);
  });

  it('caches nothing with a zero TTL', () => {
    const cache = new PrincipalCache<number>(0);
    cache.set('a', 1, []);
    expect(cache.get('a')).toBeUndefined();
  });
});
