import { readApiSchemaSdl } from '@hub/gateway';
import { buildSchema } from 'graphql';
import type { RouteDoc } from '../route';
import { apiRouteGroups, oauthTokenRoute } from '../routes';
import { downloadRoutes } from '../routes/repository-downloads';
import { buildOpenApiDocument } from './document';
import { graphqlShapes } from './graphql-shapes';

/** GET /api/v3/openapi.json, which the app serves beside the route table. */
export const OPENAPI_ROUTE: RouteDoc = {
  method: 'get',
  path: '/openapi.json',
  auth: false,
  summary: 'This description of the API (OpenAPI 3.1)',
  response: () => ({ type: 'object', description: 'An OpenAPI 3.1 document.' }),
};

/** Every route the facade serves under /api/v3, and POST /oauth/token at the root, described. */
export const describeApi = () =>
  buildOpenApiDocument(
    {
      api: { ...apiRouteGroups, repository: [...apiRouteGroups.repository, ...downloadRoutes], meta: [OPENAPI_ROUTE] },
      root: { oauth: [oauthTokenRoute] },
    },
    graphqlShapes(buildSchema(readApiSchemaSdl('internal'))),
  );
