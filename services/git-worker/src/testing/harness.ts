import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { type Metadata, type ServiceError } from '@grpc/grpc-js';
import { createLogger } from '@hub/common';
import { createGitClients, decodeErrorDetail, ERROR_DETAIL_TRAILER } from '@hub/protos';
import { createGitLauncher } from '../git/launcher';
import { createReaderPool } from '../git/object-reader';
import { launchWith } from '../git/run';
import { createContributorStats } from '../diff/contributor-stats';
import { createHistoryLengths } from '../commit/history-lengths';
import { createCompareCache } from '../diff/compare-cache';
import { bindGrpc, createGrpcServer } from '../server';
import type { MadePush, WorkerDeps } from '../rpc';

const AUTHOR = ['-c', 'user.name=Ada Lovelace', '-c', 'user.email=ada@example.com'];

/** A real gRPC server over a temporary REPOS_ROOT, and typed clients for it; launched git runs start as in the worker, from the launcher. */
export async function startHarness(overrides: Partial<WorkerDeps> = {}) {
  const root = mkdtempSync(join(tmpdir(), 'git-worker-test-'));
  const launcher = createGitLauncher();
  const readers = createReaderPool();
  const secret = randomBytes(32).toString('base64url');
  /** The pushes RPCs recorded, in order. */
  const pushes: MadePush[] = [];
  const deps: WorkerDeps = {
    root,
    logger: createLogger('git-worker-test', 'silent'),
    compareTimeoutMs: 10_000,
    importAllowLocal: true,
    startGit: launcher.spawn,
    readers,
    contributors: createContributorStats({ spawn: launchWith(launcher.spawn) }),
    historyLengths: createHistoryLengths({ start: launcher.spawn }),
    compares: createCompareCache(),
    callers: { secret, allowed: ['repository'] },
    recordPush: async (push) => void pushes.push(push),
    ...overrides,
  };
  const server = createGrpcServer(deps);
  const port = await bindGrpc(server, 0, '127.0.0.1');
  const address = `127.0.0.1:${port}`;
  // The same clients the services use, signed as an allowed caller.
  const { close: closeClients, ...clients } = createGitClients(address, {
    caller: 'repository',
    secret,
    logger: deps.logger,
  });
  let nextId = 1;

  return {
    root,
    deps,
    pushes,
    address,
    secret,
    ...clients,
    /** A new repository, filled by pushing commits made with the git CLI in a scratch clone. */
    async repo(
      commits: Array<{ files: Record<string, string | Buffer | null>; message?: string; branch?: string }> = [],
      defaultBranch = 'master',
    ) {
      const projectId = nextId++;
      await call(clients.repository, 'CreateRepository', { repository: { projectId }, defaultBranch });
      const bare = join(root, `${projectId}.git`);
      const work = mkdtempSync(join(tmpdir(), 'git-work-'));
      const git = (...args: string[]) =>
        execFileSync('git', [...AUTHOR, ...args], { cwd: work, stdio: 'pipe' })
          .toString('utf8')
          .trim();
      git('init', '--quiet', `--initial-branch=${defaultBranch}`);
      git('remote', 'add', 'origin', bare);
      for (const commit of commits) {
        if (commit.branch) git('checkout', '--quiet', '-B', commit.branch);
        for (const [path, content] of Object.entries(commit.files)) {
          const file = join(work, path);
          if (content === null) rmSync(file);
          else {
            mkdirSync(dirname(file), { recursive: true });
            writeFileSync(file, content);
          }
        }
        git('add', '-A');
        git('commit', '--quiet', '-m', commit.message ?? 'change');
        git('push', '--quiet', 'origin', 'HEAD');
      }
      return { projectId, repository: { projectId }, bare, work, git };
    },
    async stop() {
      closeClients();
      server.forceShutdown();
      readers.close();
      launcher.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A unary call as a promise. */
export function call<T = any>(client: object, method: string, request: object): Promise<T> {
  return new Promise((resolve, reject) =>
    (client as Record<string, (req: object, cb: (e: ServiceError | null, r: T) => void) => void>)[method](
      request,
      (error, response) => (error ? reject(error) : resolve(response)),
    ),
  );
}

/** A server-streaming call collected into its messages. */
export function collect<T = any>(client: object, method: string, request: object): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const stream = (client as Record<string, (req: object) => NodeJS.ReadableStream>)[method](request);
    const messages: T[] = [];
    stream.on('data', (m: T) => messages.push(m));
    stream.on('error', reject);
    stream.on('end', () => resolve(messages));
  });
}

/** The ErrorDetail kind of a failed call. */
export async function failureKind(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const metadata = (error as { metadata?: Metadata }).metadata;
    const bytes = metadata?.get(ERROR_DETAIL_TRAILER)[0];
    return bytes ? decodeErrorDetail(bytes as Buffer).kind : `status ${(error as ServiceError).code}`;
  }
  return 'ok';
}
