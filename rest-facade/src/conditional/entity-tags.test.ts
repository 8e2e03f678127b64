import { entityTag, matchesIfNoneMatch } from './entity-tags';

describe('entityTag', () => {
  it('is weak, opaque, and changes with any of its parts or their boundaries', () => {
    const tag = entityTag('caller', '/projects/1', 'v1');
    expect(tag).toMatch(/^W\/"[A-Za-z0-9_-]{32}"$/);
    expect(entityTag('caller', '/projects/1', 'v1')).toBe(tag);
    expect(entityTag('caller', '/projects/1', 'v2')).not.toBe(tag);
    expect(entityTag('other', '/projects/1', 'v1')).not.toBe(tag);
    expect(entityTag('caller/projects/1', 'v1')).not.toBe(entityTag('caller', '/projects/1v1'));
  });
});

describe('matchesIfNoneMatch (weak comparison)', () => {
  const tag = 'W/"abc"';
  it.each([
    ['the same tag', 'W/"abc"', true],
    ['its strong form', '"abc"', true],
    ['a list holding it', 'W/"x", "abc" ,W/"y"', true],
    ['any tag', '*', true],
    ['another tag', 'W/"abd"', false],
    ['a list without it', '"x", W/"y"', false],
    ['nothing', undefined, false],
    ['an empty header', '', false],
    ['the tag unquoted', 'abc', false],
  ])('%s', (_what, header, expected) => {
    expect(matchesIfNoneMatch(header, tag)).toBe(expected);
  });
});
