import { createSubscriptionLimits, headersOfConnectionParams } from './live-server';

describe('the subscriptions’ limits', () => {
  it('gives each user as many places as allowed, the process as many in all, and takes back each place once', () => {
    const { subscriptions } = createSubscriptionLimits(2, 3);
    const a1 = subscriptions.reserve('a');
    const a2 = subscriptions.reserve('a');
    expect(subscriptions.reserve('a')).toBe('Too many subscriptions: at most 2 per user');
    const b1 = subscriptions.reserve('b');
    expect(subscriptions.reserve('c')).toBe('Too many subscriptions: this gateway holds at most 3');
    expect(subscriptions.open).toBe(3);
    if (typeof a1 !== 'function' || typeof a2 !== 'function' || typeof b1 !== 'function') throw new Error('refused');
    a1();
    a1();
    expect(subscriptions.open).toBe(2);
    expect(typeof subscriptions.reserve('c')).toBe('function');
    expect(subscriptions.reserve('a')).toBe('Too many subscriptions: this gateway holds at most 3');
  });

  it('counts sockets apart from subscriptions', () => {
    const limits = createSubscriptionLimits(1, 10);
    expect(typeof limits.sockets.reserve('a')).toBe('function');
    expect(limits.sockets.reserve('a')).toBe('Too many sockets: at most 1 per user');
    expect(typeof limits.subscriptions.reserve('a')).toBe('function');
  });
});

describe('headersOfConnectionParams', () => {
  it('reads a private token or an authorization from connection_init’s payload, and nothing else', () => {
    expect(headersOfConnectionParams({ privateToken: 't1' })).toEqual({ 'private-token': 't1' });
    expect(headersOfConnectionParams({ 'PRIVATE-TOKEN': 't2' })).toEqual({ 'private-token': 't2' });
    expect(headersOfConnectionParams({ Authorization: 'Bearer x' })).toEqual({ authorization: 'Bearer x' });
    expect(headersOfConnectionParams({ privateToken: 7, sudo: 'root', cookie: 'c' })).toEqual({});
    expect(headersOfConnectionParams(undefined)).toEqual({});
  });
});
