import { MAX_LINKED_VALUE, Params } from './params';
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
    ['true', true],
    ['1', true],
    ['on', true],
    [true, true],
    ['false', false],
    ['0', false],
    ['no', false],
    [false, false],
    // GitLab 7.14's parse_boolean read anything but true, 1, t, true and on as false.
    ['yes', false],
    ['y', false],
  ])('reads %p as the boolean %p', (raw, expected) => {
    expect(new Params({}, { flag: raw }, {}).bool('flag')).toBe(expected);
  });

  it('reads integers from strings and JSON numbers, and refuses the rest with a per-field 400', () => {
    expect(new Params({ n: '40' }, {}, {}).int('n')).toBe(40);
    expect(new Params({}, { n: 40 }, {}).int('n')).toBe(40);
    expect(statusOf(() => new Params({ n: '4.5' }, {}, {}).int('n'))).toEqual([
      400,
      { message: { n: ['is invalid'] } },
    ]);
    expect(statusOf(() => new Params({ n: '99999999999' }, {}, {}).int('n'))).toEqual([
      400,
      { message: { n: ['is invalid'] } },
    ]);
    expect(statusOf(() => new Params({}, { flag: 'maybe' }, {}).bool('flag'))).toEqual([
      400,
      { message: { flag: ['is invalid'] } },
    ]);
  });

  it('treats empty values as absent', () => {
    const p = new Params({ empty: '' }, { nothing: null }, {});
    expect([p.has('empty'), p.has('nothing')]).toEqual([false, false]);
  });

  // Repeated keys used to give their first value; like `archived[]=x` or `search[a]=b` they are
  // a parameter of the wrong shape, refused whatever the accessor.
  it.each<[string, unknown]>([
    ['a repeated key', ['x', 'y']],
    ['an array', ['true']],
    ['an empty array', []],
    ['an object', { a: 'b' }],
  ])('refuses %s where one value is expected with a per-field 400', (_name, value) => {
    for (const read of [
      (p: Params) => p.string('v'),
      (p: Params) => p.int('v'),
      (p: Params) => p.bool('v'),
      (p: Params) => p.has('v'),
    ]) {
      expect(statusOf(() => read(new Params({ v: value }, {}, {})))).toEqual([400, { message: { v: ['is invalid'] } }]);
      expect(statusOf(() => read(new Params({}, { v: value }, {})))).toEqual([400, { message: { v: ['is invalid'] } }]);
    }
  });

  it('gives the Link headers only what the route read, normalised, never path parameters', () => {
    const p = new Params(
      { archived: 'on', search: 'ab c', junk: 'x'.repeat(5000), page: '2', per_page: '5', n: ' 7' },
      {},
      { id: '3' },
    );
    p.string('id');
    p.bool('archived');
    p.string('search');
    p.int('n');
    p.window();
    p.string('absent');
    expect(p.linkParams()).toEqual([
      ['archived', 'true'],
      ['search', 'ab c'],
      ['n', '7'],
    ]);
  });

  it('refuses a read value too long to repeat in the Link headers', () => {
    const p = new Params({ search: 'a'.repeat(MAX_LINKED_VALUE + 1) }, {}, {});
    p.string('search');
    expect(statusOf(() => p.linkParams())).toEqual([
      400,
      { message: { search: [`is too long (maximum is ${MAX_LINKED_VALUE} characters)`] } },
    ]);
  });

  it('names the first missing required attribute', () => {
    const p = new Params({ email: 'e' }, {}, {});
    expect(statusOf(() => p.require('email', 'password', 'name'))).toEqual([
      400,
      { message: '400 (Bad request) "password" not given' },
    ]);
  });

  it.each([' ', '   ', '\t\n', '\u00a0'])(
    'counts a value of only whitespace (%j) as missing, as Rails present? did',
    (blank) => {
      const p = new Params({ email: 'e' }, { title: blank }, {});
      expect(statusOf(() => p.require('email', 'title'))).toEqual([
        400,
        { message: '400 (Bad request) "title" not given' },
      ]);
      expect(statusOf(() => new Params({}, { title: ' x ' }, {}).require('title'))).toBe('no error');
    },
  );

  it('answers 404 for path ids that cannot name a record', () => {
    for (const id of ['abc', '0', '-1', '2147483648', '1e3']) {
      expect(statusOf(() => new Params({}, {}, { id }).id('id'))).toEqual([404, { message: '404 Not found' }]);
    }
    expect(new Params({}, {}, { id: '42' }).id('id')).toBe(42);
  });

  it('clamps the page window like kaminari', () => {
    expect(new Params({}, {}, {}).window()).toEqual({ page: 1, perPage: 20, offset: 0 });
    expect(new Params({ page: '3', per_page: '500' }, {}, {}).window()).toEqual({ page: 3, perPage: 100, offset: 200 });
    expect(new Params({ page: 'x', per_page: '0' }, {}, {}).window()).toEqual({ page: 1, perPage: 20, offset: 0 });
  });
});
