import { clientAddress, type PageWindow } from '@hub/common';
import type { NextFunction, Request, Response } from 'express';
import {
  answerNotModified,
  bodyTag,
  callerOf,
  isCurrent,
  versionTag,
  writeTagHeaders,
  type ConditionalRequests,
} from './conditional/conditional-get';
import type { VersionScope } from './conditional/version-scopes';
import type { RenderedEntities } from './entities/rendered';
import { credentialHeaders, presentsCredentials } from './credentials';
import type { GatewayCall, GatewayClient } from './gateway-client';
import { writePaginationHeaders } from './pagination';
import { Params } from './params';
import type { GraphQLShapes } from './openapi/graphql-shapes';
import type { JsonSchema } from './openapi/json-schema';
import { UNAUTHORIZED } from './v3-errors';

export interface RouteResult {
  body?: unknown;
  /** The body as JSON text already (entities/rendered.ts): sent as it is, in place of `body`. */
  json?: string;
  /** For lists: the window served and the total, for the pagination headers. */
  page?: { window: PageWindow; total: number };
}

/** A query or body parameter a route reads, as the OpenAPI description shows it (param-docs.ts). */
export interface ParamDoc {
  type: 'string' | 'integer' | 'boolean' | 'list';
  /** The values of a closed set (Params.oneOf). */
  enum?: readonly string[];
  required?: boolean;
  description?: string;
}

/**
 * What a route is, for the router and for its OpenAPI description (src/openapi): everything the
 * description cannot derive from the route's code and its GraphQL documents.
 */
export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'delete';
  /** express path below the mount point. */
  path: string;
  /** false for the few routes that hand out credentials (session, OAuth token). */
  auth?: boolean;
  summary: string;
  /**
   * The query or body parameters it reads (`Params` reads them; a unit test checks the two agree),
   * and path parameters whose meaning differs from their name's usual one (openapi/paths.ts).
   */
  params?: Record<string, ParamDoc>;
  /** The success status: 201 for POST and 200 otherwise unless given. */
  status?: number;
  /**
   * The success body's content types when it is not JSON (a snippet's raw code, a raw blob). A
   * route of the table sends the first, with the text its handler answers.
   */
  contentTypes?: readonly string[];
  /**
   * The success body's JSON Schema: the selection of the route's GraphQL document, with what its
   * presenter does. None for a route that always refuses.
   */
  response?: (shapes: GraphQLShapes) => JsonSchema;
  /**
   * Answered as it streams from the git worker (the files route's base64 JSON): no body is held
   * to tag, so no ETag. The routes of the table are all tagged.
   */
  untagged?: boolean;
  /** Another shape its errors may have besides v3's `{"message": ...}` (OAuth's). */
  errorShape?: JsonSchema;
}

export interface Route extends RouteDoc {
  /**
   * For the GETs clients poll: the versions the answer depends on. A request presenting the tag
   * made of them is answered 304 without asking a subgraph. Other GETs are tagged by their body.
   */
  versions?: VersionScope;
  /**
   * Reads the parameters and makes one gateway call (two when a rendering must be made). `state`
   * is absent where a handler runs on its own (the OpenAPI tests): then nothing is kept.
   */
  handle: (params: Params, gateway: GatewayCall, state?: RouteState) => Promise<RouteResult>;
}

/** What handlers keep in this replica, made by the composition root (main.ts). */
export interface RouteState {
  /** Absent when RENDERED_CACHE_MIB is 0: every answer is then rendered from one query. */
  rendered?: RenderedEntities;
}

/**
 * Turns a route into an express handler: credentials, parameters, the call, status and headers.
 * Every JSON answer to a GET carries an ETag, and If-None-Match with a current one gets 304.
 */
export function routeHandler(
  route: Route,
  gateway: GatewayClient,
  conditional: ConditionalRequests,
  state: RouteState,
) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const headers = credentialHeaders(req);
      if (route.auth !== false && !presentsCredentials(headers)) throw UNAUTHORIZED();
      const params = new Params(req.query, req.body, req.params as Record<string, string>);
      const client = clientAddress(req);
      const call = gateway.forRequest(headers, client);
      const caller = callerOf(headers);
      let tag: string | undefined;
      if (route.versions) {
        tag = await versionTag(route.versions, { params, gateway: call, ...conditional }, caller, req);
        if (tag && isCurrent(req, tag)) {
          // The credentials are checked as the answer would have checked them; no subgraph is asked.
          await gateway.authenticate(headers, client);
          return answerNotModified(res, tag);
        }
      }
      const result = await route.handle(params, call, state);
      const status = successStatus(route);
      if (route.contentTypes) {
        res.status(status).type(route.contentTypes[0]).send(result.body);
        return;
      }
      const json = result.json ?? JSON.stringify(result.body) ?? '';
      if (route.method === 'get' && status === 200) {
        tag ??= bodyTag(caller, json);
        if (isCurrent(req, tag)) return answerNotModified(res, tag);
        writeTagHeaders(res, tag);
      }
      if (result.page) writePaginationHeaders(req, res, result.page.window, result.page.total, params.linkParams());
      res.status(status).type('json').send(json);
    } catch (error) {
      next(error);
    }
  };
}

export const successStatus = (route: RouteDoc) => route.status ?? (route.method === 'post' ? 201 : 200);
