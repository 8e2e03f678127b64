import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GIT_ACCESS_HEADER,
  gitAccessClaims,
  verifyClaims,
  type GitAccessClaims,
  type Logger,
  type Sql,
} from '@hub/common';
import type { Request, Response } from 'express';
import { headBranch, isEmptyRepo, repoPath } from '../git/run';
import { createRepository } from '../repository/create-repository';
import type { WorkerDeps } from '../rpc';
import { parseRefUpdates, recordPushEvents } from './push-events';

const HTTP_BACKEND = 'git-http-backend';
/** Only the smart protocol: the ref advertisement and the two services. */
const ROUTE = /^\/(\d+)\.git\/(info\/refs|git-upload-pack|git-receive-pack)$/;

export interface GitHttpDeps extends WorkerDeps {
  secret: string;
  hooksDir: string;
  sql: Sql;
  logger: Logger;
}

/** One receive at a time per repository, so the refs a push changed are exactly its own. */
function createReceiveQueue() {
  const receiving = new Map<number, Promise<unknown>>();
  return <T>(projectId: number, work: () => Promise<T>): Promise<T> => {
    const previous = receiving.get(projectId) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(work);
    receiving.set(projectId, next);
    void next.finally(() => receiving.get(projectId) === next && receiving.delete(projectId)).catch(() => {});
    return next;
  };
}

/**
 * git smart HTTP for clone, fetch and push, run by `git http-backend` (CGI) over the bare
 * repositories. Only the facade may call it: each request carries the facade's signed claims
 * saying who pushes and what they may push; the pre-receive hook enforces protected branches
 * from them, the post-receive hook logs the ref updates that become push events.
 */
export function createGitHttpHandler(deps: GitHttpDeps) {
  const serialized = createReceiveQueue();
  const backend = httpBackendPath();
  return async (req: Request, res: Response) => {
    const match = ROUTE.exec(req.path);
    // Signed by the facade, and in the shape the contract says (a signature alone proves no shape).
    const claims = gitAccessClaims.safeParse(verifyClaims(req.header(GIT_ACCESS_HEADER), deps.secret)).data;
    if (!match || !claims || claims.projectId !== Number(match[1])) {
      res
        .status(match ? 403 : 404)
        .type('text/plain')
        .send(match ? 'Forbidden\n' : 'Not Found\n');
      return;
    }
    const projectId = claims.projectId;
    const service = match[2] === 'info/refs' ? String(req.query.service ?? '') : match[2];
    const receive = service === 'git-receive-pack';
    if (service !== 'git-upload-pack' && !receive) {
      res.status(403).type('text/plain').send('Only the smart protocol is served\n');
      return;
    }
    if (receive && !claims.push) {
      res.status(403).type('text/plain').send('You are not allowed to push code to this project.\n');
      return;
    }
    try {
      // The repository comes with the project; a push or clone that arrives first finds it made here.
      // Another shard reading a source asks for one that exists: a missing one is news to it, not to make.
      const repo =
        claims.create !== false
          ? await createRepository(deps, projectId, claims.defaultBranch)
          : repoPath(deps.root, projectId);
      if (claims.create === false && !existsSync(join(repo, 'HEAD'))) {
        res.status(404).type('text/plain').send('Not Found\n');
        return;
      }
      if (receive && req.method === 'POST') {
        await serialized(projectId, () => runBackend(deps, backend, req, res, claims, match[0], repo, true));
      } else {
        await runBackend(deps, backend, req, res, claims, match[0], repo, false);
      }
    } catch (error) {
      deps.logger.error({ err: error, projectId }, 'git http request failed');
      if (!res.headersSent) res.status(500).type('text/plain').send('Internal error\n');
      else res.destroy();
    }
  };
}

async function runBackend(
  deps: GitHttpDeps,
  backend: string,
  req: Request,
  res: Response,
  claims: GitAccessClaims,
  pathInfo: string,
  repo: string,
  logPush: boolean,
) {
  const logDir = logPush ? await mkdtemp(join(tmpdir(), 'hub-push-')) : null;
  // A first push into an empty repository is when GitLab protected the default branch.
  const wasEmpty = logPush ? await isEmptyRepo(repo) : false;
  const pushLog = logDir ? join(logDir, 'updates') : '';
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    GIT_PROJECT_ROOT: deps.root,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: pathInfo,
    QUERY_STRING: new URL(req.originalUrl, 'http://x').search.slice(1),
    REQUEST_METHOD: req.method,
    CONTENT_TYPE: req.header('content-type') ?? '',
    REMOTE_USER: claims.username ?? 'anonymous',
    REMOTE_ADDR: req.socket.remoteAddress ?? '',
    GIT_CONFIG_NOSYSTEM: '1',
    // Hooks only for pushes through here, from one place, whatever the repository says. Who may
    // push was decided before the backend starts (the claims), so receive-pack is always served.
    GIT_CONFIG_COUNT: '3',
    GIT_CONFIG_KEY_0: 'core.hooksPath',
    GIT_CONFIG_VALUE_0: deps.hooksDir,
    GIT_CONFIG_KEY_1: 'safe.directory',
    GIT_CONFIG_VALUE_1: '*',
    GIT_CONFIG_KEY_2: 'http.receivepack',
    GIT_CONFIG_VALUE_2: 'true',
    HUB_PROTECTED_REFS: claims.protectedBranches.map((b) => `refs/heads/${b}`).join('\n'),
    HUB_PUSH_PROTECTED: claims.pushProtected ? '1' : '0',
    HUB_DEV_PUSH_REFS: claims.developersCanPush.map((b) => `refs/heads/${b}`).join('\n'),
    HUB_PUSH_LOG: pushLog,
  };
  // Clients gzip larger requests; the backend inflates them when told.
  const encoding = req.header('content-encoding');
  if (encoding) env.HTTP_CONTENT_ENCODING = encoding;

  const child = spawn(backend, [], { env });
  req.pipe(child.stdin);
  child.stdin.on('error', () => {});
  res.on('close', () => {
    if (child.exitCode === null) child.kill();
  });

  await new Promise<void>((resolve, reject) => {
    let head = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        if (!res.write(chunk)) {
          child.stdout.pause();
          res.once('drain', () => child.stdout.resume());
        }
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n') >= 0 ? head.indexOf('\r\n\r\n') : head.indexOf('\n\n');
      if (end < 0) return;
      const sep = head[end] === 0x0d ? 4 : 2;
      const lines = head.subarray(0, end).toString('latin1').split(/\r?\n/);
      let status = 200;
      for (const line of lines) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]) || 200;
        else if (name) res.setHeader(name, value);
      }
      res.status(status);
      headersDone = true;
      const rest = head.subarray(end + sep);
      if (rest.length) res.write(rest);
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (!headersDone) {
        // Nothing usable came out: say so rather than answer an empty 200.
        deps.logger.warn({ code, stderr: stderr.trim() }, 'git http-backend failed');
        if (!res.headersSent) res.status(500).type('text/plain').write('git failed\n');
      }
      resolve();
    });
  });
  if (!logDir) {
    res.end();
    return;
  }
  // GitLab's post-receive hook queued the push's work before `git push` returned; so here a push
  // that has returned is in the events (the outbox). A database that hangs holds the answer back
  // at most PUSH_RECORD_WAIT_MS; the recording goes on after it, still inside the project's push
  // lock, so the next push's events come after this one's.
  const recording = recordPush(deps, claims, repo, wasEmpty, pushLog)
    .catch((error: unknown) =>
      deps.logger.error({ err: error, projectId: claims.projectId }, 'push events were not recorded'),
    )
    .finally(() => rm(logDir, { recursive: true, force: true }));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([recording, new Promise((resolve) => (timer = setTimeout(resolve, PUSH_RECORD_WAIT_MS)))]);
  clearTimeout(timer);
  res.end();
  await recording;
}

/** Records the ref updates post-receive logged, as push events; a repository removed meanwhile (its project deleted) has none. */
async function recordPush(
  deps: GitHttpDeps,
  claims: GitAccessClaims,
  repo: string,
  wasEmpty: boolean,
  pushLog: string,
): Promise<void> {
  const updates = parseRefUpdates(await readFile(pushLog, 'utf8').catch(() => ''));
  if (!updates.length) return;
  try {
    await recordPushEvents({
      sql: deps.sql,
      repo,
      projectId: claims.projectId,
      userId: claims.userId,
      username: claims.username,
      updates,
      wasEmpty,
      defaultBranch: await headBranch(repo),
      startGit: deps.startGit,
    });
  } catch (error) {
    if (existsSync(join(repo, 'HEAD'))) throw error;
    deps.logger.info({ projectId: claims.projectId }, 'repository removed during a push; its events are not recorded');
  }
}

/** How long a push's answer waits for its events to be recorded. */
const PUSH_RECORD_WAIT_MS = 10_000;

/** `$(git --exec-path)/git-http-backend`: looked up once, when the handler is made. */
const httpBackendPath = (): string => join(execFileSync('git', ['--exec-path']).toString('utf8').trim(), HTTP_BACKEND);
