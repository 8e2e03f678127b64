import { authorize } from '@hub/common';
import { findIssue } from '../db/issues';
import { findSnippet } from '../db/snippets';
import type { ProjectResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { issueListFilter } from './issue-list-filter';
import { issueList } from './issue-lists';
import { noSnippets, noteList, snippetList } from './lists';
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
      return access.snippetsEnabled ? snippetList(deps, project.id, args) : noSnippets(deps, args);
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
    commitNotes: async (project, args, { principal }) => {
      const commitId = await notes.commitForNotes(principal, project.id, args.ref);
      return commitId === null ? null : noteList(deps, { projectId: project.id, commitId }, args);
    },
  };
};
