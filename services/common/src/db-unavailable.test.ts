import { isDatabaseUnavailable } from './db';

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', { code: 'ECONNREFUSED' }, true],
    ['a connection closed under a query', { code: 'CONNECTION_CLOSED' }, true],
    ['Postgres shutting down (57P01)', { name: 'PostgresError', code: '57P01' }, true],
    ['Postgres starting up or recovering (57P03)', { name: 'PostgresError', code: '57P03' }, true],
    ['a connection exception (08006)', { name: 'PostgresError', code: '08006' }, true],
    ['a unique violation (23505)', { name: 'PostgresError', code: '23505' }, false],
    ['a data exception (22P02)', { name: 'PostgresError', code: '22P02' }, false],
    ['an error without a code', new Error('boom'), false],
    ['not an error', null, false],
  ])('%s: %s', (_what, error, expected) => {
    expect(isDatabaseUnavailable(error)).toBe(expected);
  });
});
