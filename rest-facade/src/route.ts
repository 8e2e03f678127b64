import { clientAddress, type PageWindow } from '@hub/common';
import type { NextFunction, Request, Response } from 'express';
import { credentialHeaders, presentsCredentials } from './credentials';
import type { GatewayCall, GatewayClient } from './gateway-client';
import { writePaginationHeaders } from './pagination';
import { Params } from './params';
import { UNAUTHORIZED } from './v3-errors';

export interface RouteResult {
  /** Defaults: 201 for POST, 200 otherwise. */
  status?: number;
  body: unknown;
  /** For lists: the window served and the total, for the pagination headers. */
  page?: { window: PageWindow; total: number };
  /** Sends `body` as this content type instead of JSON (a snippet's raw code). */
  contentType?: string;
}

export interface Route {
  method: 'get' | 'post' | 'put' | 'delete';
  /** express path below the mount point. */
  path: string;
  /** false for the few routes that hand out credentials (session, OAuth token). */
  auth?: boolean;
  /** Reads the parameters and makes one gateway call. */
  handle: (params: Params, gateway: GatewayCall) => Promise<RouteResult>;
}

/** Turns a route into an express handler: credentials, parameters, the call, status and headers. */
export function routeHandler(route: Route, gateway: GatewayClient) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const headers = credentialHeaders(req);
      if (route.auth !== false && !presentsCredentials(headers)) throw UNAUTHORIZED();
      const params = new Params(req.query, req.body, req.params as Record<string, string>);
      const result = await route.handle(params, gateway.forRequest(headers, clientAddress(req)));
      if (result.page) writePaginationHeaders(req, res, result.page.window, result.page.total, params.linkParams());
      res.status(result.status ?? (route.method === 'post' ? 201 : 200));
      if (result.contentType) res.type(result.contentType).send(result.body);
      else res.json(result.body);
    } catch (error) {
      next(error);
    }
  };
}
