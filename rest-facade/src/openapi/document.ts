import { successStatus, type ParamDoc, type RouteDoc } from '../route';
import {
  answerHeaders,
  conditionalParameters,
  errorResponses,
  errorsOf,
  headers,
  tagHeaders,
  notModified,
  pageHeaders,
  parameters,
  schemas,
  security,
  securitySchemes,
  sudoParameters,
} from './components';
import type { GraphQLShapes } from './graphql-shapes';
import { hoistTitledSchemas } from './hoist';
import type { JsonSchema } from './json-schema';
import { pathParamDoc, pathParamNames, templateOf } from './paths';

/** The routes to describe: /api/v3's by tag, and those served from the server's root. */
export interface DescribedRoutes {
  api: Record<string, RouteDoc[]>;
  root: Record<string, RouteDoc[]>;
}

const DESCRIPTION = `A project-hosting service that speaks GitLab's REST API v3.

- Parameters may come in the query string, or for POST and PUT (and DELETE) in a form or JSON body; a
  body's value wins over the query's. Empty values count as absent.
- \`.json\` may be appended to any path.
- Lists are paginated with \`page\` and \`per_page\` and answer the Link and X-Total headers.
- Errors answer \`{"message": ...}\`.`;

const valueSchema = (param: ParamDoc): JsonSchema => {
  const { type, enum: values, description } = param;
  const schema: JsonSchema =
    type === 'list'
      ? { type: 'array', items: { type: ['string', 'integer'] } }
      : { type, ...(values && { enum: [...values] }) };
  return description ? { ...schema, description } : schema;
};

/** `:id` is the project's id or path, a `…_id` a number, and so on; a route may say otherwise. */
const pathParameters = (route: RouteDoc) =>
  pathParamNames(route.path).map((name) => {
    const param = route.params?.[name] ?? pathParamDoc(name, route.path);
    const { description, ...schema } = valueSchema(param);
    return { name, in: 'path', required: true, ...(description && { description }), schema };
  });

/** Parameters that are not in the path: in the query for GET and DELETE, in the body otherwise. */
const otherParams = (route: RouteDoc) =>
  Object.entries(route.params ?? {}).filter(([name]) => !pathParamNames(route.path).includes(name));

function queryParameters(route: RouteDoc) {
  return otherParams(route).map(([name, param]) => {
    const { description, ...schema } = valueSchema(param);
    return {
      name,
      in: 'query',
      ...(param.required && { required: true }),
      ...(description && { description }),
      schema,
      ...(param.type === 'list' && { style: 'form', explode: true }),
    };
  });
}

function requestBody(route: RouteDoc) {
  const params = otherParams(route);
  if (params.length === 0) return undefined;
  const required = params.filter(([, param]) => param.required).map(([name]) => name);
  const schema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(params.map(([name, param]) => [name, valueSchema(param)])),
    ...(required.length && { required }),
  };
  return {
    content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
  };
}

function successResponse(route: RouteDoc, shapes: GraphQLShapes) {
  const paginated = route.params?.page !== undefined;
  const schema = route.response?.(shapes);
  const media = route.contentTypes ?? ['application/json'];
  return {
    description: route.summary,
    headers: {
      ...answerHeaders,
      ...(paginated && pageHeaders),
      ...(route.method === 'get' && !route.contentTypes && !route.untagged && tagHeaders),
    },
    content: Object.fromEntries(media.map((type) => [type, schema ? { schema } : {}])),
  };
}

/** `get /projects/{id}/repository/branches` → `getProjectsIdRepositoryBranches`. */
const operationId = (route: RouteDoc) =>
  route.method +
  route.path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');

function operation(route: RouteDoc, tag: string, shapes: GraphQLShapes) {
  const body = route.method === 'post' || route.method === 'put' ? requestBody(route) : undefined;
  return {
    operationId: operationId(route),
    summary: route.summary,
    tags: [tag],
    parameters: [
      ...pathParameters(route),
      ...(body ? [] : queryParameters(route)),
      ...sudoParameters,
      ...(route.method === 'get' ? conditionalParameters : []),
    ],
    ...(body && { requestBody: body }),
    ...(route.auth === false && { security: [] }),
    responses: {
      ...(route.response || route.contentTypes ? { [successStatus(route)]: successResponse(route, shapes) } : {}),
      ...(route.method === 'get' && { 304: { $ref: '#/components/responses/NotModified' } }),
      ...errorsOf(route.method, route.errorShape),
    },
  };
}

/**
 * The OpenAPI 3.1 description of the routes: built from their declarations, their GraphQL
 * documents (through `shapes`) and their presenters' shapes, never written by hand.
 */
export function buildOpenApiDocument(routes: DescribedRoutes, shapes: GraphQLShapes) {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (groups: Record<string, RouteDoc[]>, root: boolean) => {
    for (const [tag, group] of Object.entries(groups)) {
      for (const route of group) {
        const path = (paths[templateOf(route.path)] ??= root ? { servers: [{ url: '/' }] } : {});
        if (path[route.method]) throw new Error(`${route.method} ${route.path} is declared twice`);
        path[route.method] = operation(route, tag, shapes);
      }
    }
  };
  add(routes.api, false);
  add(routes.root, true);
  const titled = hoistTitledSchemas(paths);
  return {
    openapi: '3.1.0',
    info: { title: 'GitLab API v3', version: 'v3', description: DESCRIPTION },
    servers: [{ url: '/api/v3' }],
    security,
    tags: [...Object.keys(routes.api), ...Object.keys(routes.root)].map((name) => ({ name })),
    paths: titled.paths,
    components: {
      schemas: { ...schemas, ...titled.schemas },
      responses: { ...errorResponses, NotModified: notModified },
      headers,
      parameters,
      securitySchemes,
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
