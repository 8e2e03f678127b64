import {
  CreateIssueDocument,
  GetIssueDocument,
  ListIssuesDocument,
  UpdateIssueDocument,
  type IssueStateFilter,
} from '../generated/operations';
import { defined, type Params } from '../params';
import type { Route } from '../route';
import { RECORD_NOT_FOUND, v3Error } from '../v3-errors';
import { PROJECT_NOT_FOUND, projectIdOf, projectKey } from './project-key';


/** v3 sends labels as one comma-separated string; sent empty, it means none (GitLab cleared them on update). */
const labelsOf = (p: Params) =>
  p.sentEmpty('labels')
    ? []
    : p.has('labels')
      ? p
          .string('labels')!
          .split(',')
          .map((l) => l.trim())
          .filter(Boolean)
      : undefined;

const presentIssue = (issue: Record<string, unknown>) => ({ ...issue, milestone: null });

export const issueRoutes: Route[] = [
  {
    method: 'get',
    path: '/projects/:id/issues',
    handle: async (p, gateway) => {
      const window = p.window();
      const state = p.oneOf('state', ['opened', 'closed', 'all'], 'all');
      const { project } = await gateway(ListIssuesDocument, {
        ...projectKey(p),
        state: state.toUpperCase() as IssueStateFilter,
        labels: labelsOf(p) ?? null,
        iid: p.int('iid') ?? null,
        page: window.page,
        perPage: window.perPage,
      });
      if (!project) throw PROJECT_NOT_FOUND();
      return { body: project.issues.nodes.map(presentIssue), page: { window, total: project.issues.total } };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/issues/:issue_id',
    handle: async (p, gateway) => {
      const { project } = await gateway(GetIssueDocument, { ...projectKey(p), issueId: p.id('issue_id') });
      if (!project) throw PROJECT_NOT_FOUND();
      if (!project.issue) throw RECORD_NOT_FOUND();
      return { body: presentIssue(project.issue) };
    },
  },
  {
    method: 'post',
    path: '/projects/:id/issues',
    handle: async (p, gateway) => {
      p.require('title');
      const { createIssue } = await gateway(CreateIssueDocument, {
        projectId: await projectIdOf(p, gateway),
        input: { title: p.string('title')!, ...defined({ description: p.string('description'), assigneeId: p.int('assignee_id'), labels: labelsOf(p) }) },
      });
      return { body: presentIssue(createIssue) };
    },
  },
  {
    method: 'put',
    path: '/projects/:id/issues/:issue_id',
    handle: async (p, gateway) => {
      const { updateIssue } = await gateway(UpdateIssueDocument, {
        projectId: await projectIdOf(p, gateway),
        id: p.id('issue_id'),
        input: defined({ title: p.string('title'), description: p.string('description'), assigneeId: p.int('assignee_id'), labels: labelsOf(p), stateEvent: p.string('state_event') }),
      });
      return { body: presentIssue(updateIssue) };
    },
  },
  {
    // GitLab 7.14 routed it and answered not_allowed! (deleting issues was deprecated), before
    // looking at the project or the issue.
    method: 'delete',
    path: '/projects/:id/issues/:issue_id',
    handle: async () => {
      throw v3Error(405, '405 Method Not Allowed');
    },
  },
];
