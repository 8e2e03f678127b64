import { DomainError } from '@hub/common';
import { labelNames } from './labels';

const fieldsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof DomainError ? error.extensions.fields : error;
  }
  return 'no error';
};

describe('labelNames', () => {
  it('strips, drops repeats and sorts by name', () => {
    expect(labelNames([' ui', 'bug ', 'ui', 'Backend'])).toEqual(['Backend', 'bug', 'ui']);
    expect(labelNames([])).toEqual([]);
  });

  it("refuses blank names and names with & or ? in GitLab's nested shape", () => {
    expect(fieldsOf(() => labelNames(['ok', ' ', 'a&b', 'why?']))).toEqual({
      labels: { '': { title: ["can't be blank", 'is invalid'] }, 'a&b': { title: ['is invalid'] }, 'why?': { title: ['is invalid'] } },
    });
  });
});
