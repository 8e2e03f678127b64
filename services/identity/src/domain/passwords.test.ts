import { hashPassword, needsRehash, verifyPassword } from './passwords';

describe('password hashing', () => {
  it('verifies the right password only, with a fresh salt per hash', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse'), hashPassword('correct horse')]);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsf', a)).toBe(false);
    expect(await verifyPassword('correct horse', 'md5$whatever')).toBe(false);
  });

  it('asks for a rehash of hashes made with other parameters only', async () => {
    expect(needsRehash(await hashPassword('x'))).toBe(false);
    expect(needsRehash('scrypt$1024$8$1$c2FsdA==$a2V5')).toBe(true);
    expect(needsRehash('md5$whatever')).toBe(true);
  });
});
