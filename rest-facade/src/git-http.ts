import { pipeline } from 'node:stream/promises';
import {
  clientAddress,
  requestIdHeaders,
  GIT_ACCESS_HEADER,
  signClaims,
  type GitAccessClaims,
  type Logger,
} from '@hub/common';
import { failureBudgetWaitNow } from '@hub/gateway';
import type { Request, Response, Router } from 'express';
import express from 'express';
import type { GatewayClient } from './gateway-client';
import { GitAccessDocument } from './generated/operations';
import { V3Error } from './v3-errors';
import { logWorkerRefusal, WORKER_REFUSED, type WorkerPools } from './worker-http';

/** `/<namespace>/<project>[.git]/<smart HTTP endpoint>`. */
const GIT_PATH = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/(info\/refs|git-upload-pack|git-receive-pack)$/;
// Git-Protocol is not passed on: protocol v2's upload-pack serves any object a client names by
// sha, reachable or not (with forks sharing objects, that would reach into a source's history).
// v0 serves only what the advertised refs reach.
const REQUEST_HEADERS = ['content-type', 'content-encoding', 'accept', 'accept-encoding'];
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

const text = (res: Response, status: number, body: string, headers: Record<string, string> = {}) => {
  res.status(status).set(headers).type('text/plain').send(body);
};
/** git asks for credentials when it sees this. */
const askForCredentials = (res: Response) =>
  text(res, 401, 'HTTP Basic: Access denied\n', { 'WWW-Authenticate': 'Basic realm="GitLab"' });

/**
 * git clone, fetch and push over HTTP. The facade authenticates (HTTP basic: username with a
 * password or a private token) and authorizes through the gateway, then streams the request to the
 * git worker of the project's shard (the same answer names it) with signed claims of what the
 * pusher may do; the worker runs git and enforces them.
 */
export function createGitHttpProxy(deps: {
  gateway: GatewayClient;
  workers: WorkerPools;
  secret: string;
  logger: Logger;
}): Router {
  const router = express.Router();

  router.use(async (req: Request, res: Response, next) => {
    const match = GIT_PATH.exec(req.path);
    if (!match) return next();
    const [, namespace, name, endpoint] = match;
    const service = endpoint === 'info/refs' ? String(req.query.service ?? '') : endpoint;
    if (service !== 'git-upload-pack' && service !== 'git-receive-pack')
      return text(res, 403, 'Only the smart protocol is served\n');
    const pushing = service === 'git-receive-pack';
    const authorization = req.header('authorization');
    const credentials: Record<string, string> =
      authorization && /^Basic\s+\S+$/i.test(authorization) ? { authorization } : {};
    const anonymous = !credentials.authorization;

    try {
      let project;
      try {
        ({ project } = await deps.gateway.forRequest(credentials, clientAddress(req))(GitAccessDocument, {
          fullPath: `${namespace}/${name}`,
        }));
      } catch (error) {
        if (error instanceof V3Error && error.status === 401) {
          // Past the failure budget a refused login is stopped, not asked again (rate-limits.ts).
          const wait = await failureBudgetWaitNow(res);
          if (wait > 0 && !anonymous) return text(res, 429, 'Too Many Requests\n', { 'Retry-After': String(wait) });
          return askForCredentials(res);
        }
        throw error;
      }
      const access = project?.gitAccess;
      // Pushing always needs credentials; so does anything on a project the anonymous may not see.
      if (anonymous && (pushing || !access?.download)) return askForCredentials(res);
      if (!project || !access) return text(res, 404, 'Repository not found\n');
      if (!access.download) return text(res, 404, 'Repository not found\n');
      if (pushing && !access.push) return text(res, 403, 'You are not allowed to push code to this project.\n');

      const claims: GitAccessClaims = {
        projectId: project.id,
        userId: access.userId,
        username: access.username,
        push: access.push,
        pushProtected: access.pushProtected,
        protectedBranches: access.protectedBranches,
        developersCanPush: access.developersCanPush,
        defaultBranch: project.defaultBranch,
      };
      const search = new URL(req.originalUrl, 'http://x').search;
      const headers: Record<string, string> = {
        [GIT_ACCESS_HEADER]: signClaims(claims, deps.secret),
        ...requestIdHeaders(),
      };
      for (const name of REQUEST_HEADERS) {
        const value = req.header(name);
        if (value) headers[name] = value;
      }
      const upstream = await deps.workers.of(project.repositoryStorage).request({
        method: req.method as 'GET' | 'POST',
        path: `/${project.id}.git/${endpoint}${search}`,
        headers,
        body: req.method === 'POST' ? req : undefined,
      });
      if (upstream.statusCode === WORKER_REFUSED) {
        upstream.body.dump().catch(() => {});
        logWorkerRefusal(deps.logger, { storage: project.repositoryStorage, path: req.path });
        return text(res, 503, 'Service Unavailable\n');
      }
      res.status(upstream.statusCode);
      for (const [header, value] of Object.entries(upstream.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(header)) res.setHeader(header, value);
      }
      await pipeline(upstream.body, res);
    } catch (error) {
      if (error instanceof V3Error)
        return text(
          res,
          error.status,
          `${typeof error.body.message === 'string' ? error.body.message : error.status}\n`,
        );
      deps.logger.error({ err: error, path: req.path }, 'git proxy failed');
      if (!res.headersSent) text(res, 502, 'Bad Gateway\n');
      else res.destroy();
    }
  });
  return router;
}
