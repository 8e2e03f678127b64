import { projectScope } from '../conditional/version-scopes';
import { commitDetailSchema, presentCommitDetail, presentRepoCommit, repoCommitSchema } from '../entities/repository';
import { mapItems } from '../openapi/json-schema';
import { int, PAGE, required, str } from '../param-docs';
import {
  CommitCommentsDocument,
  CommitDiffByIdDocument,
  CommitDiffDocument,
  CreateCommitCommentDocument,
  GetCommitByIdDocument,
  GetCommitDocument,
  ListCommitsByIdDocument,
  ListCommitsDocument,
} from '../generated/operations';
import type { Route } from '../route';
import { v3Error } from '../v3-errors';
import { PROJECT_NOT_FOUND, projectIdOf, projectKey, projectRepository } from './project-key';

const COMMIT_NOT_FOUND = () => v3Error(404, '404 Commit Not Found');

/** GitLab 7.14's commits API (lib/api/commits.rb): read with download_code. */
export const commitRoutes: Route[] = [
  {
    // GitLab 7.14 counted `page` from 0 here and sent no pagination headers; this follows the
    // spec's pagination instead (pages from 1, Link and X-Total), like every other list.
    method: 'get',
    path: '/projects/:id/repository/commits',
    versions: projectScope,
    summary: 'Lists commits, newest first',
    params: { ref_name: str('A branch, tag or commit; the default branch by default.'), ...PAGE },
    response: (g) => mapItems(g.select(ListCommitsByIdDocument, 'repositoryReads.commits.nodes'), repoCommitSchema),
    handle: async (p, gateway) => {
      const window = p.window();
      const key = projectKey(p);
      const ref = p.string('ref_name') ?? null;
      const paging = { page: window.page, perPage: window.perPage };
      // Without a ref the project names the default branch; by id at a ref, the repository subgraph answers alone.
      const { nodes, total } =
        key.id !== null && ref
          ? (await gateway(ListCommitsByIdDocument, { projectId: key.id, ref, ...paging })).repositoryReads.commits
          : (await projectRepository(gateway(ListCommitsDocument, { ...key, ref, ...paging }))).commits;
      return { body: nodes.map(presentRepoCommit), page: { window, total } };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/repository/commits/:sha',
    versions: projectScope,
    summary: 'A commit',
    response: (g) => commitDetailSchema(g.select(GetCommitByIdDocument, 'repositoryReads.commit')),
    handle: async (p, gateway) => {
      const key = projectKey(p);
      const sha = p.string('sha')!;
      const commit =
        key.id !== null
          ? (await gateway(GetCommitByIdDocument, { projectId: key.id, sha })).repositoryReads.commit
          : (await projectRepository(gateway(GetCommitDocument, { ...key, sha }))).commit;
      if (!commit) throw COMMIT_NOT_FOUND();
      return { body: presentCommitDetail(commit) };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/repository/commits/:sha/diff',
    summary: "A commit's diff",
    response: (g) => g.select(CommitDiffByIdDocument, 'repositoryReads.commitDiff'),
    handle: async (p, gateway) => {
      const key = projectKey(p);
      const sha = p.string('sha')!;
      const diff =
        key.id !== null
          ? (await gateway(CommitDiffByIdDocument, { projectId: key.id, sha })).repositoryReads.commitDiff
          : (await projectRepository(gateway(CommitDiffDocument, { ...key, sha }))).commitDiff;
      if (!diff) throw COMMIT_NOT_FOUND();
      return { body: diff };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/repository/commits/:sha/comments',
    summary: "Lists a commit's comments",
    params: PAGE,
    response: (g) => g.select(CommitCommentsDocument, 'project.commitNotes.nodes'),
    handle: async (p, gateway) => {
      const window = p.window();
      const { project } = await gateway(CommitCommentsDocument, {
        ...projectKey(p),
        sha: p.string('sha')!,
        page: window.page,
        perPage: window.perPage,
      });
      if (!project) throw PROJECT_NOT_FOUND();
      if (!project.commitNotes) throw COMMIT_NOT_FOUND();
      return { body: project.commitNotes.nodes, page: { window, total: project.commitNotes.total } };
    },
  },
  {
    // GitLab placed a comment on a diff line only when path, line and line_type all came; a
    // comment with only some of them was a plain comment on the commit.
    method: 'post',
    path: '/projects/:id/repository/commits/:sha/comments',
    summary: 'Comments on a commit, or on a line of its diff (path, line and line_type together)',
    params: {
      note: required(str()),
      path: str('The file of the line.'),
      line: int(),
      line_type: str('new or old.'),
    },
    response: (g) => g.select(CreateCommitCommentDocument, 'createCommitNote.note'),
    handle: async (p, gateway) => {
      p.require('note');
      const onLine = p.has('path') && p.has('line') && p.has('line_type');
      const { createCommitNote } = await gateway(CreateCommitCommentDocument, {
        input: {
          projectId: await projectIdOf(p, gateway),
          ref: p.string('sha')!,
          body: p.string('note')!,
          path: onLine ? p.string('path')! : null,
          line: onLine ? (p.int('line') ?? null) : null,
          lineType: onLine ? p.string('line_type')! : null,
        },
      });
      // A null note without errors: the ref names no commit.
      if (!createCommitNote.note) throw COMMIT_NOT_FOUND();
      return { body: createCommitNote.note };
    },
  },
];
