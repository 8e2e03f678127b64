import {
  compareKeysAsText,
  connectionOf,
  createCursors,
  keysetPageOf,
  MAX_CONNECTION_PAGE,
  type KeysetWindow,
} from './connections';

const cursors = createCursors('a-secret-for-tests-only-0123456789');
const ORDERING = 'projects:name:asc';

const refusal = (argument: string) =>
  expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', argument }) });

describe('cursors', () => {
  it('round-trips a key, and refuses a cursor of another ordering, another secret, a tampered or a made-up one', () => {
    const cursor = cursors.encode(ORDERING, ['alpha', '12']);
    expect(cursors.decode(ORDERING, cursor, 'after')).toEqual(['alpha', '12']);
    const [payload, signature] = cursor.split('.');
    const tampered = `${Buffer.from(JSON.stringify([ORDERING, ['alpha', '13']])).toString('base64url')}.${signature}`;
    const foreign = createCursors('another-secret-another-secret-0000').encode(ORDERING, ['alpha', '12']);
    for (const bad of [
      cursors.encode('projects:name:desc', ['alpha', '12']),
      foreign,
      tampered,
      `${payload}.`,
      payload,
      'bm90IGEgY3Vyc29y',
      `${cursor}.x`,
      // Base64 decoding would drop a stray trailing character.
      `${cursor}x`,
      '',
    ])
      expect(() => cursors.decode(ORDERING, bad, 'before')).toThrow(refusal('before'));
  });

  it('takes the window the arguments ask for, within the limits, and names a wrong argument', () => {
    const after = cursors.encode(ORDERING, ['b', '2']);
    expect(cursors.window(ORDERING, { first: 5, after })).toEqual({
      after: ['b', '2'],
      before: null,
      limit: 5,
      from: 'start',
    });
    expect(cursors.window(ORDERING, { last: 3 })).toEqual({ after: null, before: null, limit: 3, from: 'end' });
    expect(cursors.window(ORDERING, {}).limit).toBe(20);
    expect(() => cursors.window(ORDERING, { first: MAX_CONNECTION_PAGE + 1 })).toThrow(refusal('first'));
    expect(() => cursors.window(ORDERING, { first: MAX_CONNECTION_PAGE + 1 })).toThrow(
      '"first" must be between 0 and 100, got 101',
    );
    expect(() => cursors.window(ORDERING, { last: -1 })).toThrow(refusal('last'));
    expect(() => cursors.window(ORDERING, { first: 1, last: 1 })).toThrow(refusal('last'));
    expect(() => cursors.window(ORDERING, { after: 'junk' })).toThrow(refusal('after'));
  });
});

describe('connectionOf', () => {
  const rows = ['a', 'b', 'c', 'd'];
  const window = (from: 'start' | 'end', limit: number): KeysetWindow => ({ after: null, before: null, limit, from });
  it('pages forward: the extra row says there is a next page, the probe a previous one', () => {
    const page = connectionOf(rows, window('start', 3), true, (row) => `c-${row}`);
    expect(page.nodes).toEqual(['a', 'b', 'c']);
    expect(page.edges.map((edge) => edge.cursor)).toEqual(['c-a', 'c-b', 'c-c']);
    expect(page.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: true, startCursor: 'c-a', endCursor: 'c-c' });
  });
  it('pages backward: the last rows, the extra one at the start saying there is a previous page', () => {
    const page = connectionOf(rows, window('end', 3), false, (row) => row);
    expect(page.nodes).toEqual(['b', 'c', 'd']);
    expect(page.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true, startCursor: 'b', endCursor: 'd' });
  });
  it('answers an empty page with null cursors', () => {
    expect(connectionOf([], window('start', 3), false, String).pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: null,
      endCursor: null,
    });
  });
});

describe('keysetPageOf (lists held in memory)', () => {
  const names = ['delta', 'alpha', 'echo', 'charlie', 'bravo'].map((name) => ({ name }));
  const page = (window: Partial<KeysetWindow>) =>
    keysetPageOf(names, (item) => [item.name], compareKeysAsText, {
      after: null,
      before: null,
      limit: 2,
      from: 'start',
      ...window,
    });
  const namesOf = (result: ReturnType<typeof page>) => result.rows.map((row) => row.name);

  it('sorts by key and reads one extra row on the window side', () => {
    expect(namesOf(page({}))).toEqual(['alpha', 'bravo', 'charlie']);
    expect(page({}).beyond).toBe(false);
    expect(page({}).rows[0].sortKey).toEqual(['alpha']);
  });

  it('starts after the cursor, and says rows lie before it', () => {
    const result = page({ after: ['bravo'] });
    expect(namesOf(result)).toEqual(['charlie', 'delta', 'echo']);
    expect(result.beyond).toBe(true);
  });

  it('keeps its place when the cursor’s own item is gone', () => {
    expect(namesOf(page({ after: ['bravo-deleted'] }))).toEqual(['charlie', 'delta', 'echo']);
  });

  it('pages backward from before, with beyond saying rows follow', () => {
    const result = page({ before: ['echo'], from: 'end' });
    expect(namesOf(result)).toEqual(['bravo', 'charlie', 'delta']);
    expect(result.beyond).toBe(true);
    expect(page({ from: 'end' }).beyond).toBe(false);
  });

  it('answers the rows between two cursors', () => {
    expect(namesOf(page({ after: ['alpha'], before: ['delta'], limit: 5 }))).toEqual(['bravo', 'charlie']);
  });
});
