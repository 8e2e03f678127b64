import { issueListFilter } from './issue-list-filter';

describe('issueListFilter', () => {
  it('defaults to every state, no labels, newest created first', () => {
    expect(issueListFilter({})).toEqual({ states: null, labels: [], orderBy: 'created_at', sort: 'desc' });
    expect(issueListFilter({ state: null, labels: null, orderBy: null, sort: null })).toEqual({
      states: null,
      labels: [],
      orderBy: 'created_at',
      sort: 'desc',
    });
  });

  it('reads opened as opened or reopened, and passes labels, order and direction through', () => {
    expect(issueListFilter({ state: 'OPENED', labels: ['bug'], orderBy: 'UPDATED_AT', sort: 'ASC' })).toEqual({
      states: ['opened', 'reopened'],
      labels: ['bug'],
      orderBy: 'updated_at',
      sort: 'asc',
    });
    expect(issueListFilter({ state: 'CLOSED', sort: 'DESC' })).toMatchObject({ states: ['closed'], sort: 'desc' });
    expect(issueListFilter({ state: 'ALL' }).states).toBeNull();
  });
});
