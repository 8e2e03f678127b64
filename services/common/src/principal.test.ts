import { signLimited, signPrincipal, verifyLimited, verifyPrincipal, type Principal } from './principal';

const secret = 's'.repeat(40);
const alice: Principal = { userId: 7, username: 'alice', isAdmin: false, impersonatorId: 1 };

describe('signed principal header', () => {
  it('round-trips', () => {
    expect(verifyPrincipal(signPrincipal(alice, secret), secret)).toEqual(alice);
  });

  it('refuses a missing, malformed, tampered or foreign header', () => {
    const header = signPrincipal(alice, secret);
    const [body, mac] = header.split('.');
    const elevated = Buffer.from(JSON.stringify({ ...alice, isAdmin: true, iat: Date.now() })).toString('base64url');
    expect(verifyPrincipal(undefined, secret)).toBeNull();
    expect(verifyPrincipal('garbage', secret)).toBeNull();
    expect(verifyPrincipal(`${elevated}.${mac}`, secret)).toBeNull();
    expect(verifyPrincipal(`${body}.${mac.slice(0, -2)}`, secret)).toBeNull();
    expect(verifyPrincipal(header, 't'.repeat(40))).toBeNull();
  });

  it('refuses a stale header', () => {
    const header = signPrincipal(alice, secret, Date.now() - 10 * 60_000);
    expect(verifyPrincipal(header, secret)).toBeNull();
  });
});

describe('signed facade-limited header', () => {
  it('round-trips the client address', () => {
    expect(verifyLimited(signLimited('10.0.0.7', secret), secret)).toBe('10.0.0.7');
  });

  it('is never taken for a principal, nor a principal for it, nor signed with another secret', () => {
    expect(verifyPrincipal(signLimited('10.0.0.7', secret), secret)).toBeNull();
    expect(verifyLimited(signPrincipal(alice, secret), secret)).toBeNull();
    expect(verifyLimited(signLimited('10.0.0.7', 't'.repeat(40)), secret)).toBeNull();
    expect(verifyLimited(undefined, secret)).toBeNull();
  });
});
