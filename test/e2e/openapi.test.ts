import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { describeApi } from '../../rest-facade/src/openapi';
import { api, createProject } from '../support/api';
import { createConformanceChecker, type Exchange } from '../support/openapi-conformance';
import { takeProblems } from '../support/openapi-setup';

describe('the OpenAPI description', () => {
  it('is served at /api/v3/openapi.json without credentials, as the facade builds it', async () => {
    const res = await api('GET', '/openapi.json', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(describeApi())));
  });
});

describe('the check of every answer against it', () => {
  let check: ReturnType<typeof createConformanceChecker>['check'];
  let project: Exchange;
  let list: Exchange;

  beforeAll(async () => {
    check = createConformanceChecker((await api('GET', '/openapi.json', { token: null })).body).check;
    const created = await createProject();
    const exchange = async (path: string): Promise<Exchange> => {
      const res = await api('GET', path);
      return {
        method: 'GET',
        path: `/api/v3${path}`,
        status: res.status,
        headers: Object.fromEntries(res.headers),
        body: res.text,
      };
    };
    project = await exchange(`/projects/${created.id}`);
    list = await exchange('/projects?per_page=2');
  });

  it('passes the answers the facade gives', () => {
    expect(check(project)).toEqual([]);
    expect(check(list)).toEqual([]);
    expect(check({ ...project, path: `${project.path}.json` })).toEqual([]);
  });

  it('fails an undocumented status, content type, missing or extra field, or missing page headers', () => {
    const body = JSON.parse(project.body!);
    const { name: _name, ...withoutName } = body;
    const { 'x-total': _total, ...headersWithoutTotal } = list.headers;
    const wrong: Array<[string, Exchange]> = [
      ['status', { ...project, status: 418 }],
      ['content type', { ...project, headers: { ...project.headers, 'content-type': 'text/html' } }],
      ['missing field', { ...project, body: JSON.stringify(withoutName) }],
      ['extra field', { ...project, body: JSON.stringify({ ...body, secret: 'x' }) }],
      ['wrong type', { ...project, body: JSON.stringify({ ...body, id: String(body.id) }) }],
      ['error shape', { ...project, status: 404, body: JSON.stringify({ error: 'not found' }) }],
      ['page headers', { ...list, headers: headersWithoutTotal }],
      ['unknown route', { ...project, path: '/api/v3/nowhere', status: 200 }],
    ];
    for (const [what, exchange] of wrong) expect([what, check(exchange)]).toEqual([what, [expect.any(String)]]);
  });

  describe('of answers from a server at an /api/v3 path', () => {
    let server: Server;
    let origin: string;
    beforeAll(async () => {
      server = createServer((_req, res) => res.writeHead(418, { 'content-type': 'application/json' }).end('{}'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('sees fetch and undici requests alike, but not /graphql or git paths', async () => {
      await (await fetch(`${origin}/api/v3/projects/1`)).text();
      await (await request(`${origin}/api/v3/user`)).body.text();
      await (await fetch(`${origin}/graphql`)).text();
      await (await fetch(`${origin}/group/project.git/info/refs`)).text();
      const problems = takeProblems();
      expect(problems).toEqual([
        expect.stringContaining('GET /api/v3/projects/1 → 418'),
        expect.stringContaining('GET /api/v3/user → 418'),
      ]);
    });
  });
});
