import { DomainError } from './errors';
import { checkLabelNames, colorProblems, labelNames, LABEL_TITLE_MAX, titleProblems } from './label-rules';

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
      labels: {
        '': { title: ["can't be blank", 'is invalid'] },
        'a&b': { title: ['is invalid'] },
        'why?': { title: ['is invalid'] },
      },
    });
    expect(checkLabelNames(['fine', 'a,b']).errors).toEqual({ 'a,b': { title: ['is invalid'] } });
  });

  it('refuses names longer than 255 characters once stripped, counting characters rather than UTF-16 units', () => {
    const long = 'x'.repeat(300);
    expect(fieldsOf(() => labelNames(['ok', long]))).toEqual({
      labels: { [long]: { title: ['is too long (maximum is 255 characters)'] } },
    });
    expect(labelNames([` ${'y'.repeat(LABEL_TITLE_MAX)} `])).toEqual(['y'.repeat(255)]);
    // 255 astral characters are 510 code units, still 255 characters.
    expect(labelNames(['😀'.repeat(255)])).toEqual(['😀'.repeat(255)]);
    expect(checkLabelNames(['😀'.repeat(256)]).errors).toEqual({
      ['😀'.repeat(256)]: { title: ['is too long (maximum is 255 characters)'] },
    });
  });
});

describe("a label's own attributes", () => {
  it.each([
    ['bug', []],
    ['two words', []],
    ['  ', ["can't be blank"]],
    ['', ["can't be blank", 'is invalid']],
    ['a?b', ['is invalid']],
    ['z'.repeat(255), []],
    ['z'.repeat(256), ['is too long (maximum is 255 characters)']],
    [`a&${'z'.repeat(300)}`, ['is invalid', 'is too long (maximum is 255 characters)']],
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
