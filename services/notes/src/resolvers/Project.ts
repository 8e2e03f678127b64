import { authorize, pageWindow } from '@hub/common';
import { findIssue } from '../db/issues';
import { findSnippet, listSnippets } from '../db/snippets';
import type { ProjectResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { issueListFilter } from './issue-list-filter';
import { issueList } from './issue-lists';
import { NOTEABLE_TYPE } from './Noteable';

export const createProjectResolvers = (deps: ResolverDeps): ProjectResolvers => {
  const { sql, notes } = deps;
  return {
    __resolveReference: (reference) => ({ id: reference.databaseId }),
    databaseId: (project) => project.id,
    issues: async (project, args, { principal, loaders }) => {
      authorize(await loaders.access.load(project.id), principal, 'read_project');
      return issueList(
        deps,
        { ...issueListFilter(args), projectId: project.id, iid: args.iid, milestoneTitle: args.milestone },
        args,
      );
    },
    snippets: async (project, args, { principal, loaders }) => {
      const access = authorize(await loaders.access.load(project.id), principal, 'read_project');
      if (!access.snippetsEnabled) return { nodes: [], total: 0 };
      const { rows, total } = await listSnippets(sql, project.id, pageWindow(args.page, args.perPage));
      return { nodes: rows, total };
    },
    snippet: async (project, { id }, { principal, loaders }) => {
      const access = authorize(await loaders.access.load(project.id), principal, 'read_project');
      return access.snippetsEnabled ? ((await findSnippet(sql, project.id, id)) ?? null) : null;
    },
    issue: async (project, { id }, { principal, loaders }) => {
      authorize(await loaders.access.load(project.id), principal, 'read_project');
      return (await findIssue(sql, project.id, id)) ?? null;
    },
    noteable: async (project, { kind, id }, { principal }) => {
      const type = NOTEABLE_TYPE[kind];
      return (await notes.noteable(principal, project.id, type, id)) ? { projectId: project.id, type, id } : null;
    },
    commitNotes: (project, { ref, page, perPage }, { principal }) =>
      notes.commitNotes(principal, project.id, ref, page, perPage),
  };
};
