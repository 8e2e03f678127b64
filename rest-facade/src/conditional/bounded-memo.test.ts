import { BoundedMemo } from './bounded-memo';

describe('BoundedMemo', () => {
  it('forgets the entry set longest ago once full; setting again makes an entry new', () => {
    const memo = new BoundedMemo<string, number>(2);
    memo.set('a', 1);
    memo.set('b', 2);
    memo.set('a', 3);
    memo.set('c', 4);
    expect(memo.get('b')).toBeUndefined();
    expect(memo.get('a')).toBe(3);
    expect(memo.get('c')).toBe(4);
  });
});
