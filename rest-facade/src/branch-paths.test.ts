import type { Request } from 'express';
import { encodeBranchNames } from './branch-paths';

const rewrite = (method: string, url: string) => {
  const req = { method, url } as Request;
  encodeBranchNames(req, {} as never, () => {});
  return req.url;
};

describe('encodeBranchNames', () => {
  it('encodes the slashes inside a branch name, leaving the route suffix on PUT', () => {
    expect(rewrite('GET', '/projects/7/repository/branches/feature/x')).toBe(
      '/projects/7/repository/branches/feature%2Fx',
    );
    expect(rewrite('PUT', '/projects/7/repository/branches/feature/x/protect')).toBe(
      '/projects/7/repository/branches/feature%2Fx/protect',
    );
    expect(rewrite('PUT', '/projects/a%2Fb/repository/branches/f/x/unprotect?private_token=t')).toBe(
      '/projects/a%2Fb/repository/branches/f%2Fx/unprotect?private_token=t',
    );
    expect(rewrite('DELETE', '/projects/7/repository/branches/release/protect')).toBe(
      '/projects/7/repository/branches/release%2Fprotect',
    );
  });

  it('leaves other paths and plain names alone', () => {
    for (const [method, url] of [
      ['GET', '/projects/7/repository/branches/master'],
      ['PUT', '/projects/7/repository/branches/master/protect'],
      ['GET', '/projects/7/repository/branches'],
      ['GET', '/projects/7/repository/tree/a/b'],
    ]) {
      expect(rewrite(method, url)).toBe(url);
    }
  });
});
