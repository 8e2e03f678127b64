import { clientAddress } from '@hub/common';
import type { Request } from 'express';
import { credentialHeaders, presentsCredentials } from '../../credentials';
import { RepositoryDownloadByIdDocument, RepositoryDownloadDocument } from '../../generated/operations';
import { Params } from '../../params';
import { UNAUTHORIZED, v3Error } from '../../v3-errors';
import { PROJECT_NOT_FOUND, projectKey } from '../project-key';
import type { DownloadDeps } from './deps';

/**
 * The gateway authorizes a download (the project's repository must be readable) and names the
 * project and its shard: one fetch to projects, or, for a project named by id whose name and
 * default branch the download does not need, one to the repository subgraph, which answers from
 * its access answers and the shards it knows without reading the project (a 1 MiB raw blob cost
 * projects and Postgres about 0.8 ms of CPU to authorize).
 */
export function createDownloadAuthorization(deps: DownloadDeps) {
  const authorize = async (
    req: Request,
    headers: ReturnType<typeof credentialHeaders>,
    key: ReturnType<typeof projectKey>,
  ) => {
    const { project } = await deps.gateway.forRequest(headers, clientAddress(req))(RepositoryDownloadDocument, key);
    if (!project) throw PROJECT_NOT_FOUND();
    // The answer Project.repository's authorization gives: the project is visible, its code is not.
    if (!project.canDownloadCode) throw v3Error(403, '403 Forbidden');
    deps.git.remember(project.id, project.repositoryStorage);
    return project;
  };

  /** The same refusals as authorize's (the project's 404 before the code's 403), for a project named by id. */
  const authorizeById = async (req: Request, headers: ReturnType<typeof credentialHeaders>, projectId: number) => {
    const { repositoryReads } = await deps.gateway.forRequest(headers, clientAddress(req))(
      RepositoryDownloadByIdDocument,
      { projectId },
    );
    deps.git.remember(projectId, repositoryReads.storage);
    return { id: projectId, repositoryStorage: repositoryReads.storage };
  };

  const credentialsOf = (req: Request) => {
    const headers = credentialHeaders(req);
    if (!presentsCredentials(headers)) throw UNAUTHORIZED();
    return headers;
  };

  return {
    authorizeDownload: async (req: Request) => {
      const headers = credentialsOf(req);
      const p = new Params(req.query, {}, req.params as Record<string, string>);
      const project = await authorize(req, headers, projectKey(p));
      return { p, project };
    },

    /**
     * A download whose bytes the request names by itself (`target`: a sha, or a ref and a path; a
     * throw when it cannot, as its 400 must come after the authorization's 404). When the project
     * is named by id and its shard is known, the worker is asked (`start`) beside the authorization
     * instead of after it: one hop's wait instead of two. Its bytes reach the client only once the
     * authorization names that very project on that shard; any other answer cancels it unread.
     */
    startBesideAuthorization: async <Target, Started extends { cancel(): void }>(
      req: Request,
      target: (p: Params) => Target,
      start: (storage: string, projectId: number, target: Target) => Started,
    ) => {
      const headers = credentialsOf(req);
      const p = new Params(req.query, {}, req.params as Record<string, string>);
      const key = projectKey(p);
      const guessed = key.id === null ? null : deps.git.knownStorage(key.id);
      let early: Started | null = null;
      if (guessed) {
        let named: { target: Target } | null = null;
        try {
          named = { target: target(p) };
        } catch {
          // Refused parameters are answered after the authorization, by the call below.
        }
        if (named) early = start(guessed, key.id!, named.target);
      }
      let project;
      try {
        project = key.id === null ? await authorize(req, headers, key) : await authorizeById(req, headers, key.id);
      } catch (error) {
        early?.cancel();
        throw error;
      }
      if (early && (project.id !== key.id || project.repositoryStorage !== guessed)) {
        early.cancel();
        early = null;
      }
      return early ?? start(project.repositoryStorage, project.id, target(p));
    },
  };
}

export type DownloadAuthorization = ReturnType<typeof createDownloadAuthorization>;
