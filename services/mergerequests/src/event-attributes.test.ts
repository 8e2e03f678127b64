import { isWorkInProgress } from './event-attributes';

describe("isWorkInProgress: GitLab 7.14's /\\A\\[?WIP\\]?:? /i", () => {
  it.each([
    ['WIP: title', true],
    ['wip title', true],
    ['[WIP] title', true],
    ['[WIP]: title', true],
    ['[WIP title', true],
    ['WIP] title', true],
    ['WIP:x', false],
    ['WIP-x', false],
    ['[WIP]x', false],
    ['WIP', false],
    [' WIP: leading space', false],
    ['Not WIP: title', false],
    ['WIPE the floor', false],
  ])('%j → %s', (title, expected) => {
    expect(isWorkInProgress(title)).toBe(expected);
  });
});
