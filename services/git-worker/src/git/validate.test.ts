import { GitError } from './errors';
import { validateOid, validatePath, validateRef, validateTagName } from './validate';

const refused = (fn: () => unknown) => {
  try {
    fn();
    return false;
  } catch (error) {
    return error instanceof GitError && error.kind === 'INVALID_ARGUMENT';
  }
};

describe('what reaches git', () => {
  it.each(['master', 'feature/x', 'v1.0', 'a'.repeat(40), 'release-2026'])('accepts the ref %s', (ref) => {
    expect(validateRef(ref)).toBe(ref);
  });
  it.each([
    '',
    '-o',
    '--upload-pack=x',
    'a..b',
    'x\u0000y',
    'a b',
    'x:y',
    'HEAD@{1}',
    '/abs',
    'end/',
    'x.lock',
    'a~1',
    'a^',
    'a\nb',
  ])('refuses the ref %j', (ref) => expect(refused(() => validateRef(ref))).toBe(true));
  it('normalises paths and keeps them inside the tree', () => {
    expect(validatePath('/a//b/./c/')).toBe('a/b/c');
    expect(validatePath('')).toBe('');
    expect(validatePath('ünïcode dir/file name.txt')).toBe('ünïcode dir/file name.txt');
    expect(refused(() => validatePath('../../etc/passwd'))).toBe(true);
    expect(refused(() => validatePath('a/../../b'))).toBe(true);
    expect(refused(() => validatePath('a\u0000b'))).toBe(true);
  });
  it('takes only full hex object ids', () => {
    expect(validateOid('a'.repeat(40))).toBe('a'.repeat(40));
    expect(refused(() => validateOid('-' + 'a'.repeat(39)))).toBe(true);
    expect(refused(() => validateOid('abc'))).toBe(true);
  });
  it('explains a bad tag name in v3 words', () => {
    expect(() => validateTagName('bad name')).toThrow('tag_name is invalid');
  });
});
