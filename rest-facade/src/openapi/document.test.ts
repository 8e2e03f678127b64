import SwaggerParser from '@apidevtools/swagger-parser';
import { createLogger, parseNetworkList } from '@hub/common';
import express, { type Express, type RequestHandler } from 'express';
import { createFacadeApp } from '../app';
import { createScopeMemos } from '../conditional/version-scopes';
import type { GatewayClient } from '../gateway-client';
import { createDownloadRoutes } from '../routes/repository-downloads';
import { describeApi } from '.';

const document = describeApi();

/** The facade's app with stand-ins for what it talks to: enough to read its routes. */
function facadeApp(): Express {
  const gateway: GatewayClient = {
    forRequest: () => async () => ({}) as never,
    authenticate: async () => {},
    ready: async () => {},
    close: async () => {},
  };
  const pass: RequestHandler = (_req, _res, next) => next();
  const logger = createLogger('openapi-test', 'silent');
  return createFacadeApp({
    gateway,
    logger,
    gitHttp: express.Router(),
    downloads: createDownloadRoutes({ gateway, git: {} as never, workers: {} as never, secret: 's', logger }),
    rateLimits: { api: pass, git: pass },
    trustedProxies: parseNetworkList(''),
    // Nothing here is requested: reading the routes needs no versions.
    conditional: { versions: { read: async () => null }, memos: createScopeMemos(), close: async () => {} },
  });
}

interface Layer {
  route?: { path: string | RegExp; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: string;
  match(path: string): unknown;
}

/** Every route express serves, as `METHOD path` with the mount prefix, and the pattern routes. */
function servedRoutes(stack: Layer[], prefix = ''): Array<{ method: string; path: string | RegExp; layer: Layer }> {
  return stack.flatMap((layer) => {
    if (layer.route)
      return Object.keys(layer.route.methods)
        .filter((method) => method !== '_all')
        .map((method) => ({
          method,
          path: typeof layer.route!.path === 'string' ? prefix + layer.route!.path : layer.route!.path,
          layer,
        }));
    const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
    return layer.handle.stack ? servedRoutes(layer.handle.stack, prefix + mount) : [];
  });
}

/** A template filled in: an enum parameter with each of its values (so a pattern route finds its paths), others with `x`. */
function instances(
  template: string,
  operation: { parameters?: Array<{ name?: string; schema?: { enum?: string[] } }> },
) {
  let paths = [template];
  for (const [, name] of template.matchAll(/\{([^}]+)\}/g)) {
    const values = operation.parameters?.find((p) => p.name === name)?.schema?.enum ?? ['x'];
    paths = paths.flatMap((path) => values.map((value) => path.replace(`{${name}}`, value)));
  }
  return paths;
}

describe('the OpenAPI description', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    expect(document.openapi).toBe('3.1.0');
  });

  it('describes every route the facade serves under /api/v3 and at the root, and nothing else', () => {
    const served = servedRoutes((facadeApp() as unknown as { router: { stack: Layer[] } }).router.stack);
    const described = Object.entries(document.paths).flatMap(([template, item]) =>
      ['get', 'post', 'put', 'delete']
        .filter((method) => method in item)
        .map((method) => {
          const base = 'servers' in item ? '' : '/api/v3';
          return { method, template: base + template, operation: item[method as 'get'] as never };
        }),
    );
    const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
    // Pattern routes are found by the paths their operations name.
    const patterns = served.filter((route) => route.path instanceof RegExp);
    const byPattern = described.filter(({ method, template, operation }) =>
      patterns.some(
        (route) =>
          route.method === method &&
          instances(template, operation).every((path) => route.layer.match(path.replace(/^\/api\/v3/, ''))),
      ),
    );
    const servedKeys = served
      .filter((route) => typeof route.path === 'string' && /^\/(api\/v3|oauth)\//.test(route.path))
      .map((route) => key(route.method, (route.path as string).replace(/:([A-Za-z_]+)/g, '{$1}')));
    const describedKeys = described.filter((d) => !byPattern.includes(d)).map((d) => key(d.method, d.template));
    expect(byPattern.map((d) => key(d.method, d.template))).toEqual([
      'GET /api/v3/projects/{id}/repository/archive.{format}',
    ]);
    expect(new Set(describedKeys)).toEqual(new Set(servedKeys));
    expect(describedKeys).toHaveLength(servedKeys.length);
  });

  it('gives every operation a summary, an id of its own and its error answers', () => {
    const operations = Object.values(document.paths).flatMap((item) =>
      ['get', 'post', 'put', 'delete'].filter((m) => m in item).map((m) => item[m as 'get'] as Record<string, any>),
    );
    expect(operations.length).toBeGreaterThan(130);
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(operations.length);
    for (const operation of operations) {
      expect(operation.summary).toEqual(expect.any(String));
      expect(operation.responses).toHaveProperty('500');
    }
  });

  it('holds the shared entities once, by reference', () => {
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['Error', 'Project', 'User', 'UserFull', 'Issue', 'MergeRequest', 'Branch', 'Tag']),
    );
    const list = document.paths['/projects'] as any;
    expect(list.get.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Project' },
    });
  });
});
