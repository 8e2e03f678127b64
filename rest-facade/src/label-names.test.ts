import { labelFilterParam, labelNamesParam } from './label-names';
import { Params } from './params';

const params = (labels: unknown) => new Params({}, labels === undefined ? {} : { labels }, {});

describe('labels given to an issue or merge request', () => {
  it.each<[unknown, string[] | undefined]>([
    [undefined, undefined],
    ['', []],
    ['  ', []],
    ['bug', ['bug']],
    ['bug, ui', ['bug', ' ui']],
    ['a,,b', ['a', '', 'b']],
    ['a,b,,', ['a', 'b']],
    [',a', ['', 'a']],
  ])('%j is %j', (labels, expected) => {
    expect(labelNamesParam(params(labels))).toEqual(expected);
  });
});

describe('labels as a list filter', () => {
  it.each<[unknown, string[] | null]>([
    [undefined, null],
    ['bug', ['bug']],
    ['bug, ui,,', ['bug', 'ui']],
  ])('%j is %j', (labels, expected) => {
    expect(labelFilterParam(params(labels))).toEqual(expected);
  });
});
