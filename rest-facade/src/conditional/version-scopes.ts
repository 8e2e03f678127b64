import { DIRECTORY_VERSION, PROJECT_ACTIVITY_VERSION, PROJECT_CATALOG_VERSION, projectVersionKey } from '@hub/common';
import { MergeRequestSourceDocument, ProjectIdDocument } from '../generated/operations';
import type { GatewayCall } from '../gateway-client';
import type { Params } from '../params';
import { projectKey } from '../routes/project-key';
import { BoundedMemo } from './bounded-memo';
import type { VersionReader } from './versions';

export interface ScopeContext {
  params: Params;
  gateway: GatewayCall;
  versions: VersionReader;
  memos: ScopeMemos;
}

/**
 * The versions a polled route's answer depends on (common/resource-versions.ts): its ETag is made
 * of them, so a request that presents a current tag is answered 304 without asking a subgraph.
 * Null when that cannot be told now (Redis away, a path that names nothing): answer in full.
 */
export type VersionScope = (context: ScopeContext) => Promise<string[] | null>;

const MEMO_CAPACITY = 10_000;

/** What a replica remembers to tell scopes without asking a subgraph; made by its composition root. */
export function createScopeMemos() {
  return {
    /**
     * Which project a path named when the catalog and directory were at the versions kept beside
     * it. A rename or a new project advances the catalog, a namespace's rename the directory:
     * either sends the path to be looked up again.
     */
    projectsByPath: new BoundedMemo<string, { id: number; catalog: string; directory: string }>(MEMO_CAPACITY),
    /** A merge request's source project, which never changes: its pushes change the merge request's changes. */
    sourceProjects: new BoundedMemo<string, number>(MEMO_CAPACITY),
  };
}
export type ScopeMemos = ReturnType<typeof createScopeMemos>;

/** The project `:id` names and the keys that name it; null when the path names nothing visible. */
async function projectOf(context: ScopeContext): Promise<{ id: number; keys: string[] } | null> {
  const key = projectKey(context.params);
  if (key.id !== null) return { id: key.id, keys: [projectVersionKey(key.id), DIRECTORY_VERSION] };
  const path = key.fullPath!.toLowerCase();
  const names = [PROJECT_CATALOG_VERSION, DIRECTORY_VERSION];
  const read = await context.versions.read(names);
  if (!read) return null;
  const [catalog, directory] = read;
  let memo = context.memos.projectsByPath.get(path);
  if (!memo || memo.catalog !== catalog || memo.directory !== directory) {
    const { project } = await context.gateway(ProjectIdDocument, { fullPath: key.fullPath! });
    if (!project) return null;
    context.memos.projectsByPath.set(path, (memo = { id: project.id, catalog, directory }));
  }
  return { id: memo.id, keys: [projectVersionKey(memo.id), ...names] };
}

/** Anything under one project: its own versions and the directory's (users and groups shown). */
export const projectScope: VersionScope = async (context) => (await projectOf(context))?.keys ?? null;

/** One project as GET /projects/:id shows it: with the project it was forked from (the catalog). */
export const projectWithParentScope: VersionScope = async (context) => {
  const project = await projectOf(context);
  return project && [...new Set([...project.keys, PROJECT_CATALOG_VERSION])];
};

/** Project lists: what any project shows, and their last activity, which orders them. */
export const projectListScope: VersionScope = async () => [
  PROJECT_CATALOG_VERSION,
  PROJECT_ACTIVITY_VERSION,
  DIRECTORY_VERSION,
];

/** A merge request's changes: the target project's versions and the source project's pushes. */
export const mergeRequestChangesScope: VersionScope = async (context) => {
  const project = await projectOf(context);
  if (!project) return null;
  const mergeRequestId = context.params.id('merge_request_id');
  const memoKey = `${project.id}:${mergeRequestId}`;
  let source = context.memos.sourceProjects.get(memoKey);
  if (source === undefined) {
    const answer = await context.gateway(MergeRequestSourceDocument, {
      id: project.id,
      fullPath: null,
      mergeRequestId,
    });
    const found = answer.project?.mergeRequest?.sourceProjectId;
    if (found === undefined) return null;
    context.memos.sourceProjects.set(memoKey, (source = found));
  }
  return [...new Set([...project.keys, projectVersionKey(source)])];
};
