import { createTokenSealer } from './token-seal';

describe('sealed private tokens', () => {
  const sealer = createTokenSealer('k'.repeat(40));

  it('opens what it sealed, and the sealed text does not contain the token', () => {
    const sealed = sealer.seal('abcdefghij0123456789');
    expect(sealed).not.toContain('abcdefghij0123456789');
    expect(sealer.open(sealed)).toBe('abcdefghij0123456789');
    expect(sealer.seal('abcdefghij0123456789')).not.toBe(sealed); // a fresh IV each time
  });

  it('opens nothing sealed under another key, or tampered with', () => {
    const sealed = sealer.seal('abcdefghij0123456789');
    expect(createTokenSealer('x'.repeat(40)).open(sealed)).toBeNull();
    const [v, iv, body, tag] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(sealer.open([v, iv, flipped.toString('base64url'), tag].join('.'))).toBeNull();
    expect(sealer.open('plain-token')).toBeNull();
  });

  it('refuses a short key', () => {
    expect(() => createTokenSealer('short')).toThrow(/at least 32/);
  });
});
