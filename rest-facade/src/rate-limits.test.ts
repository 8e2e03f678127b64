import type { AbuseLimits } from '@hub/gateway';
import type { Request } from 'express';
import { facadeRateLimits } from './rate-limits';

type Identify = Parameters<AbuseLimits['middleware']>[0]['identify'];

/** The facade's identify, taken from the middleware it hands to the limits. */
function identifyOf(): Identify {
  let identify: Identify | undefined;
  const limits = {
    middleware: (door: { identify: Identify }) => ((identify = door.identify), () => {}),
  } as unknown as AbuseLimits;
  facadeRateLimits(limits);
  return identify!;
}

const request = (method: string, baseUrl: string, path: string, body: Record<string, unknown>) =>
  ({ method, baseUrl, path, query: {}, body, header: () => undefined }) as unknown as Request;

describe('facadeRateLimits sign-in detection', () => {
  const identify = identifyOf();

  it.each([
    ['/api/v3', '/session'],
    ['/api/v3', '/session/'],
    ['/api/v3', '/SESSION'],
    ['/API/V3', '/Session/'],
  ])('counts POST %s%s as a sign-in for its login', (baseUrl, path) => {
    expect(identify(request('POST', baseUrl, path, { login: ' Root ' }))).toEqual({ signIn: { login: 'root' } });
  });

  it.each([['/oauth/token'], ['/oauth/token/'], ['/OAuth/Token']])('counts POST %s as a sign-in', (path) => {
    expect(identify(request('POST', '', path, { grant_type: 'password', username: 'Root' }))).toEqual({
      signIn: { login: 'root' },
    });
  });

  it('does not count other paths or methods as sign-ins', () => {
    expect(identify(request('GET', '/api/v3', '/session/', {})).signIn).toBeUndefined();
    expect(identify(request('POST', '/api/v3', '/sessions', { login: 'root' })).signIn).toBeUndefined();
  });
});
