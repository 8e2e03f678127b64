import { hostOf, InternalAddressError, isInternalAddress, pointsInside, publicOnlyLookup } from './network';

describe('internal addresses', () => {
  it('counts loopback, private, link-local and IPv4-mapped forms as internal', () => {
    expect(
      [
        '127.0.0.1',
        '10.1.2.3',
        '192.168.0.1',
        '172.20.0.1',
        '169.254.169.254',
        '::1',
        '::ffff:127.0.0.1',
        '::ffff:7f00:1',
        'fd00::1',
        'not-an-ip',
      ].every(isInternalAddress),
    ).toBe(true);
    // As the URL parser writes an IPv4-mapped host: it must not slip through.
    expect(isInternalAddress(hostOf(new URL('http://[::ffff:127.0.0.1]/')))).toBe(true);
    expect(['8.8.8.8', '2001:4860::8888'].some(isInternalAddress)).toBe(false);
  });

  it('treats names resolving inside, or to nothing, as inside', async () => {
    expect(await pointsInside('localhost')).toBe(true);
    expect(await pointsInside('127.0.0.1')).toBe(true);
    expect(await pointsInside('no-such-host.invalid')).toBe(true);
    expect(await pointsInside('93.184.216.34')).toBe(false);
  });

  it('refuses to hand a socket an internal address', async () => {
    const result = await new Promise<{ error: Error | null; address: unknown }>((resolve) =>
      publicOnlyLookup('localhost', {}, (error, address) => resolve({ error, address })),
    );
    expect(result.error).toBeInstanceOf(InternalAddressError);
  });
});
