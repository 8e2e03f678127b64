import { Params } from './params';
import { V3Error } from './v3-errors';

const statusOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof V3Error ? [error.status, error.body] : error;
  }
  return 'no error';
};

describe('Params', () => {
  it('merges query, body and path, the later winning', () => {
    const p = new Params({ a: 'q', b: 'q' }, { b: 'body', c: 'body' }, { c: 'path' });
    expect([p.string('a'), p.string('b'), p.string('c')]).toEqual(['q', 'body', 'path']);
  });

  it.each([
    ['true', true], ['1', true], ['yes', true], [true, true],
    ['false', false], ['0', false], ['no', false], [false, false],
  ])('reads %p as the boolean %p', (raw, expected) => {
    expect(new Params({}, { flag: raw }, {}).bool('flag')).toBe(expected);
  });

  it('reads integers from strings and JSON numbers, and refuses the rest with a per-field 400', () => {
    expect(new Params({ n: '40' }, {}, {}).int('n')).toBe(40);
    expect(new Params({}, { n: 40 }, {}).int('n')).toBe(40);
    expect(statusOf(() => new Params({ n: '4.5' }, {}, {}).int('n'))).toEqual([400, { message: { n: ['is invalid'] } }]);
    expect(statusOf(() => new Params({ n: '99999999999' }, {}, {}).int('n'))).toEqual([400, { message: { n: ['is invalid'] } }]);
    expect(statusOf(() => new Params({}, { flag: 'maybe' }, {}).bool('flag'))).toEqual([400, { message: { flag: ['is invalid'] } }]);
  });

  it('treats empty values as absent and takes the first of repeated ones', () => {
    const p = new Params({ empty: '', list: ['x', 'y'] }, { nothing: null }, {});
    expect([p.has('empty'), p.has('nothing'), p.string('list')]).toEqual([false, false, 'x']);
  });

  it('names the first missing required attribute', () => {
    const p = new Params({ email: 'e' }, {}, {});
    expect(statusOf(() => p.require('email', 'password', 'name'))).toEqual([400, { message: '400 (Bad request) "password" not given' }]);
  });

  it('answers 404 for path ids that cannot name a record', () => {
    for (const id of ['abc', '0', '-1', '2147483648', '1e3']) {
      expect(statusOf(() => new Params({}, {}, { id }).id('id'))).toEqual([404, { message: '404 Not Found' }]);
    }
    expect(new Params({}, {}, { id: '42' }).id('id')).toBe(42);
  });

  it('clamps the page window like kaminari', () => {
    expect(new Params({}, {}, {}).window()).toEqual({ page: 1, perPage: 20, offset: 0 });
    expect(new Params({ page: '3', per_page: '500' }, {}, {}).window()).toEqual({ page: 3, perPage: 100, offset: 200 });
    expect(new Params({ page: 'x', per_page: '0' }, {}, {}).window()).toEqual({ page: 1, perPage: 20, offset: 0 });
  });
});
