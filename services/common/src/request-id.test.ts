import { acceptRequestId, currentRequestId, requestIdHeaders, withRequestId } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('a request id', () => {
  it.each(['abc', 'A.b_c-9', 'x'.repeat(64), '01HXYZ.trace-7_b'])('is taken from the client when safe: %s', (id) => {
    expect(acceptRequestId(id)).toBe(id);
  });

  it.each([
    ['empty', ''],
    ['too long', 'x'.repeat(65)],
    ['spaced', 'a b'],
    ['a header break', 'a\r\nSet-Cookie: x=1'],
    ['a log break', 'a\nb'],
    ['quoted', 'a"b'],
    ['non-ASCII', 'héllo'],
    ['slashed', '../etc'],
  ])('is made anew when the client’s is %s', (_what, id) => {
    const accepted = acceptRequestId(id);
    expect(accepted).not.toBe(id);
    expect(accepted).toMatch(UUID);
  });

  it('is made anew, and differently, when none or several are presented', () => {
    const [a, b] = [acceptRequestId(undefined), acceptRequestId(['one', 'two'])];
    expect(a).toMatch(UUID);
    expect(b).toMatch(UUID);
    expect(a).not.toBe(b);
  });

  it('follows the work it is given across awaits, and is passed on as a header only inside it', async () => {
    expect(currentRequestId()).toBeUndefined();
    expect(requestIdHeaders()).toEqual({});
    const seen = await withRequestId('req-1', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const inner = await withRequestId('req-2', async () => currentRequestId());
      return { outer: currentRequestId(), inner, headers: requestIdHeaders() };
    });
    expect(seen).toEqual({ outer: 'req-1', inner: 'req-2', headers: { 'x-request-id': 'req-1' } });
    expect(currentRequestId()).toBeUndefined();
  });
});
