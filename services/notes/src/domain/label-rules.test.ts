import { DomainError } from '@hub/common';
import { checkLabelNames, colorProblems, labelNames, titleProblems } from './label-rules';

const fieldsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof DomainError ? error.extensions.fields : error;
  }
  return 'no error';
};

describe('label names an issue or merge request is given', () => {
  it('strips, drops repeats and sorts by name', () => {
    expect(labelNames([' ui', 'bug ', 'ui', 'Backend'])).toEqual(['Backend', 'bug', 'ui']);
    expect(labelNames([])).toEqual([]);
  });

  it("refuses blank names and names with &, ? or , in GitLab's nested shape", () => {
    expect(fieldsOf(() => labelNames(['ok', ' ', 'a&b', 'why?']))).toEqual({
      labels: { '': { title: ["can't be blank", 'is invalid'] }, 'a&b': { title: ['is invalid'] }, 'why?': { title: ['is invalid'] } },
    });
    expect(checkLabelNames(['fine', 'a,b']).errors).toEqual({ 'a,b': { title: ['is invalid'] } });
  });
});

describe("a label's own attributes", () => {
  it.each([
    ['bug', []],
    ['two words', []],
    ['  ', ["can't be blank"]],
    ['', ["can't be blank", 'is invalid']],
    ['a?b', ['is invalid']],
  ])('title %j: %j', (title, problems) => {
    expect(titleProblems(title)).toEqual(problems);
  });

  it.each([
    ['#FFAABB', []],
    ['#0a0b0c', []],
    ['#FFAABB\n', []],
    ['FFAABB', ['is invalid']],
    ['#FFF', ['is invalid']],
    ['#GGGGGG', ['is invalid']],
    ['#FFAABB0', ['is invalid']],
    ['red', ['is invalid']],
  ])('color %j: %j', (color, problems) => {
    expect(colorProblems(color)).toEqual(problems);
  });
});
