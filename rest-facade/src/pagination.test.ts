import type { Request, Response } from 'express';
import { writePaginationHeaders } from './pagination';

/** Just what the writer reads of a request and writes to a response. */
function fakes(originalUrl: string) {
  const headers: Record<string, string> = {};
  const req = {
    originalUrl,
    protocol: 'http',
    header: (name: string) => (name.toLowerCase() === 'host' ? 'hub.example' : undefined),
  } as unknown as Request;
  const res = { setHeader: (name: string, value: string) => (headers[name] = value) } as unknown as Response;
  return { req, res, headers };
}

const links = (header: string) =>
  Object.fromEntries([...header.matchAll(/<([^>]+)>; rel="(\w+)"/g)].map((m) => [m[2], m[1]]));

describe('writePaginationHeaders', () => {
  it('repeats only the parameters given, never the raw query', () => {
    const raw = `/api/v3/projects?archived%5B%5D=${'A'.repeat(4096)}&private_token=secret&search=x&page=2`;
    const { req, res, headers } = fakes(raw);
    writePaginationHeaders(req, res, { page: 2, perPage: 20, offset: 20 }, 100, [
      ['search', 'x'],
      ['archived', 'true'],
    ]);
    expect(links(headers.Link)).toEqual({
      prev: 'http://hub.example/api/v3/projects?search=x&archived=true&page=1&per_page=20',
      next: 'http://hub.example/api/v3/projects?search=x&archived=true&page=3&per_page=20',
      first: 'http://hub.example/api/v3/projects?search=x&archived=true&page=1&per_page=20',
      last: 'http://hub.example/api/v3/projects?search=x&archived=true&page=5&per_page=20',
    });
    expect(headers.Link.length).toBeLessThan(1000);
    expect([
      headers['X-Total'],
      headers['X-Total-Pages'],
      headers['X-Page'],
      headers['X-Next-Page'],
      headers['X-Prev-Page'],
    ]).toEqual(['100', '5', '2', '3', '1']);
  });
});
