import {
  CLIENT_BODY_LIMIT,
  CREDENTIALS_REFUSED,
  createObservedApp,
  recordError,
  trustProxySetting,
  type Logger,
  type NetworkList,
} from '@hub/common';
import { failureBudgetWaitNow } from '@hub/gateway';
import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Router } from 'express';
import {
  answerNotModified,
  bodyTag,
  isCurrent,
  writeTagHeaders,
  type ConditionalRequests,
} from './conditional/conditional-get';
import type { GatewayClient } from './gateway-client';
import { encodeBranchNames } from './branch-paths';
import { describeApi, OPENAPI_ROUTE } from './openapi';
import { signInOf } from './rate-limits';
import { routeHandler } from './route';
import type { RenderedEntities } from './entities/rendered';
import { apiRoutes, oauthTokenRoute } from './routes';
import { V3Error } from './v3-errors';

/** v3 clients may append `.json` to any API path (Grape's format suffix); the routes never see it. */
const stripJsonSuffix: RequestHandler = (req, _res, next) => {
  const [path, query] = req.url.split('?', 2);
  if (path.endsWith('.json')) req.url = path.slice(0, -'.json'.length) + (query === undefined ? '' : `?${query}`);
  next();
};

/** body-parser's refusals (its error `type`), as v3's 400 names them. */
const BODY_REFUSALS: Record<string, string> = {
  'charset.unsupported': 'unsupported charset',
  'encoding.unsupported': 'unsupported content encoding',
  'request.aborted': 'request body cut short',
  'request.size.invalid': 'request body shorter or longer than its Content-Length',
};

/** Every error becomes a JSON body: v3's `{"message": ...}`, or a route's own shape. */
function errorHandler(logger: Logger): ErrorRequestHandler {
  return async (error, req, res, _next) => {
    if (error instanceof V3Error) {
      if (error.extensions[CREDENTIALS_REFUSED] === true) res.locals[CREDENTIALS_REFUSED] = true;
      // Past the address's (or login's) failure budget, refused credentials are answered 429: the
      // guess is stopped, while a valid credential from the same address has passed (rate-limits.ts).
      const refusedCredentials = error.status === 401 && (res.locals[CREDENTIALS_REFUSED] === true || signInOf(req));
      const wait = refusedCredentials ? await failureBudgetWaitNow(res) : 0;
      if (wait > 0) {
        res.setHeader('Retry-After', String(wait));
        res.status(429).json({ message: '429 Too Many Requests' });
        return;
      }
      // A 502/503 names the hop that failed; its span holds the cause.
      if (error.status >= 500) recordError(error);
      if (typeof error.extensions.retryAfter === 'string') res.setHeader('Retry-After', error.extensions.retryAfter);
      res.status(error.status).json(error.body);
      return;
    }
    const parseError = error as { type?: string; status?: number };
    if (parseError.type === 'entity.parse.failed') {
      res.status(400).json({ message: '400 (Bad request) malformed request body' });
      return;
    }
    if (parseError.type === 'entity.too.large') {
      res.status(413).json({ message: '413 Request Entity Too Large' });
      return;
    }
    if (typeof parseError.status === 'number' && parseError.status >= 400 && parseError.status < 500) {
      // Whatever else the body parsers refuse (a charset or content encoding they cannot read, a
      // body cut short) is bad input: v3's 400, saying what was wrong.
      res
        .status(400)
        .json({ message: `400 (Bad request) ${BODY_REFUSALS[parseError.type ?? ''] ?? 'unreadable request'}` });
      return;
    }
    logger.error({ err: error }, 'unexpected facade error');
    recordError(error);
    res.status(500).json({ message: '500 Internal Server Error' });
  };
}

export function createFacadeApp(deps: {
  gateway: GatewayClient;
  logger: Logger;
  gitHttp: Router;
  downloads: Router;
  rateLimits: { api: RequestHandler; git: RequestHandler };
  /** Whose X-Forwarded-For is believed for the client address (TRUSTED_PROXIES). */
  trustedProxies: NetworkList;
  /** ETags and 304s for GETs (conditional/). */
  conditional: ConditionalRequests;
  /** The projects this replica rendered, by revision (entities/rendered.ts); none kept without it. */
  rendered?: RenderedEntities;
}): Express {
  const { app } = createObservedApp({
    service: 'rest-facade',
    readiness: { gateway: deps.gateway.ready },
    logger: deps.logger,
  });
  app.set('trust proxy', trustProxySetting(deps.trustedProxies));
  // Query strings are read as Rack read them for GitLab, and as forms are read below: `a[]=x`
  // is the array it spells (refused where one value is expected), not a parameter named `a[]`.
  app.set('query parser', 'extended');
  // git's own paths, before any body parser: pushes stream through untouched.
  app.use(deps.rateLimits.git, deps.gitHttp);

  // The OpenAPI description, built when first asked for and kept; mounted before the API router,
  // whose .json suffix rule would otherwise take its name's suffix away.
  let description: string | undefined;
  let descriptionTag: string | undefined;
  app.get(`/api/v3${OPENAPI_ROUTE.path}`, deps.rateLimits.api, (req, res) => {
    description ??= JSON.stringify(describeApi());
    // The same for every caller: tagged by its body, as every JSON answer to a GET.
    descriptionTag ??= bodyTag('', description);
    if (isCurrent(req, descriptionTag)) return answerNotModified(res, descriptionTag);
    writeTagHeaders(res, descriptionTag);
    res.type('application/json').send(description);
  });

  const state = { rendered: deps.rendered };
  const api = express.Router();
  api.use(stripJsonSuffix);
  api.use(encodeBranchNames);
  // A JSON body is read whatever the method: some clients send `{}` with GET and DELETE.
  api.use(express.json({ limit: CLIENT_BODY_LIMIT, strict: false }));
  api.use(express.urlencoded({ extended: true, limit: CLIENT_BODY_LIMIT }));
  // After the parsers: tokens and logins may come as parameters.
  api.use(deps.rateLimits.api);
  // Raw files and archives stream from the git worker rather than answering JSON.
  api.use(deps.downloads);
  for (const route of apiRoutes)
    api[route.method](route.path, routeHandler(route, deps.gateway, deps.conditional, state));
  app.use('/api/v3', api);

  app.post(
    oauthTokenRoute.path,
    express.json({ limit: '64kb', strict: false }),
    express.urlencoded({ extended: false, limit: '64kb' }),
    deps.rateLimits.api,
    routeHandler(oauthTokenRoute, deps.gateway, deps.conditional, state),
  );

  app.use((_req, res) => {
    res.status(404).json({ message: '404 Not Found' });
  });
  app.use(errorHandler(deps.logger));
  return app;
}
