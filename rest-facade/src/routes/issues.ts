import { projectScope } from '../conditional/version-scopes';
import {
  CreateIssueDocument,
  GetIssueDocument,
  ListIssuesDocument,
  UpdateIssueDocument,
  ViewerIssuesDocument,
  type IssueOrder,
  type IssueStateFilter,
  type SortDirection,
} from '../generated/operations';
import { issueSchema, presentIssue } from '../entities/issue';
import { payloadEntity } from '../gateway-client';
import { labelFilterParam, labelNamesParam } from '../label-names';
import { mapItems } from '../openapi/json-schema';
import { int, oneOf, PAGE, required, str } from '../param-docs';
import { defined, type Params } from '../params';
import type { Route } from '../route';
import { RECORD_NOT_FOUND, v3Error } from '../v3-errors';
import { PROJECT_NOT_FOUND, projectIdOf, projectKey } from './project-key';

/** What listFilters reads. */
const FILTER_PARAMS = {
  state: oneOf(['opened', 'closed', 'all'], 'all by default.'),
  labels: str('Label names, comma-separated: issues with all of them.'),
  order_by: oneOf(['created_at', 'updated_at'], 'created_at by default.'),
  sort: oneOf(['asc', 'desc'], 'desc by default.'),
};
const LABELS = str('Label names, comma-separated; a name the project has no label for makes one.');

/** state, labels and GitLab's issuable_order_by / issuable_sort, as both issue lists read them. */
const listFilters = (p: Params) => ({
  state: p.oneOf('state', ['opened', 'closed', 'all'], 'all').toUpperCase() as IssueStateFilter,
  labels: labelFilterParam(p),
  orderBy: p.oneOf('order_by', ['created_at', 'updated_at'], 'created_at').toUpperCase() as IssueOrder,
  sort: p.oneOf('sort', ['asc', 'desc'], 'desc').toUpperCase() as SortDirection,
});

export const issueRoutes: Route[] = [
  {
    // GitLab 7.14's current_user.issues: the issues the user opened, in any project.
    method: 'get',
    path: '/issues',
    summary: 'Lists the issues the caller opened, in every project',
    params: { ...FILTER_PARAMS, ...PAGE },
    response: (g) => mapItems(g.select(ViewerIssuesDocument, 'viewerIssues.nodes'), issueSchema),
    handle: async (p, gateway) => {
      const window = p.window();
      const { viewerIssues } = await gateway(ViewerIssuesDocument, {
        ...listFilters(p),
        page: window.page,
        perPage: window.perPage,
      });
      return { body: viewerIssues.nodes.map(presentIssue), page: { window, total: viewerIssues.total } };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/issues',
    versions: projectScope,
    summary: "Lists the project's issues",
    params: {
      ...FILTER_PARAMS,
      iid: int('Only the one with this iid.'),
      milestone: str('Only those of the milestone with this title.'),
      ...PAGE,
    },
    response: (g) => mapItems(g.select(ListIssuesDocument, 'project.issues.nodes'), issueSchema),
    handle: async (p, gateway) => {
      const window = p.window();
      const { project } = await gateway(ListIssuesDocument, {
        ...projectKey(p),
        ...listFilters(p),
        iid: p.int('iid') ?? null,
        milestone: p.string('milestone') ?? null,
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
    versions: projectScope,
    summary: 'An issue',
    response: (g) => issueSchema(g.select(GetIssueDocument, 'project.issue')),
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
    summary: 'Opens an issue',
    params: { title: required(str()), description: str(), assignee_id: int(), milestone_id: int(), labels: LABELS },
    response: (g) => issueSchema(g.select(CreateIssueDocument, 'createIssue.issue')),
    handle: async (p, gateway) => {
      p.require('title');
      const { createIssue } = await gateway(CreateIssueDocument, {
        input: {
          projectId: await projectIdOf(p, gateway),
          title: p.string('title')!,
          ...defined({
            description: p.string('description'),
            assigneeId: p.int('assignee_id'),
            milestoneId: p.int('milestone_id'),
            labels: labelNamesParam(p),
          }),
        },
      });
      return { body: presentIssue(payloadEntity(createIssue.issue)) };
    },
  },
  {
    method: 'put',
    path: '/projects/:id/issues/:issue_id',
    summary: 'Changes, closes or reopens an issue',
    params: {
      title: str(),
      description: str(),
      assignee_id: int(),
      milestone_id: int(),
      labels: LABELS,
      state_event: str('close or reopen.'),
    },
    response: (g) => issueSchema(g.select(UpdateIssueDocument, 'updateIssue.issue')),
    handle: async (p, gateway) => {
      const { updateIssue } = await gateway(UpdateIssueDocument, {
        input: defined({
          projectId: await projectIdOf(p, gateway),
          issueId: p.id('issue_id'),
          title: p.string('title'),
          description: p.string('description'),
          assigneeId: p.int('assignee_id'),
          milestoneId: p.int('milestone_id'),
          labels: labelNamesParam(p),
          // v3's state_event as sent: an unknown one gets v3's own 400, which the enum cannot carry.
          v3StateEvent: p.string('state_event'),
        }),
      });
      return { body: presentIssue(payloadEntity(updateIssue.issue)) };
    },
  },
  {
    // GitLab 7.14 routed it and answered not_allowed! (deleting issues was deprecated), before
    // looking at the project or the issue.
    method: 'delete',
    path: '/projects/:id/issues/:issue_id',
    summary: 'Always 405: issues are closed, not deleted',
    handle: async () => {
      throw v3Error(405, '405 Method Not Allowed');
    },
  },
];
