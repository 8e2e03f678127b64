import type { Request } from 'express';
import { credentialHeaders } from './credentials';

const request = (headers: Record<string, string>, query: Record<string, unknown> = {}, body: unknown = {}) =>
  ({ header: (name: string) => headers[name.toLowerCase()], query, body }) as unknown as Request;

describe('credentialHeaders', () => {
  it('passes a token on as it came', () => {
    expect(credentialHeaders(request({ 'private-token': 'abc' }))).toEqual({ 'private-token': 'abc' });
    expect(credentialHeaders(request({}, { access_token: 'tok' }))).toEqual({ authorization: 'Bearer tok' });
  });

  // The fuzz found it: a 100 KB access_token parameter went on to identity's principal lookup,
  // which refused the body as too large, and the client got a 503 instead of a 401.
  it('passes no token longer than any real one, or not printable, but one that matches nobody', () => {
    const huge = 'x'.repeat(100 * 1024);
    expect(credentialHeaders(request({}, { access_token: huge }))).toEqual({ authorization: 'Bearer invalid' });
    expect(credentialHeaders(request({}, { private_token: huge }))).toEqual({ 'private-token': 'invalid' });
    expect(credentialHeaders(request({ 'private-token': 'a b' }))).toEqual({ 'private-token': 'invalid' });
  });

  it('answers a sudo name no user can have with the spec 404, without asking anyone', () => {
    expect(() => credentialHeaders(request({ 'private-token': 'abc' }, { sudo: 'z'.repeat(256) }))).toThrow(
      '404 Not Found: No user id or username for',
    );
    expect(credentialHeaders(request({ 'private-token': 'abc', sudo: 'someone' }))).toEqual({
      'private-token': 'abc',
      sudo: 'someone',
    });
  });
});
