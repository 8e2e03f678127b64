import { mergeRequestChangesScope, projectScope } from '../conditional/version-scopes';
import {
  AcceptMergeRequestDocument,
  CreateMergeRequestDocument,
  GetMergeRequestDocument,
  ListMergeRequestsDocument,
  MergeRequestChangesDocument,
  UpdateMergeRequestDocument,
  type MergeRequestStateFilter,
} from '../generated/operations';
import { mergeRequestSchema, presentMergeRequest } from '../entities/merge-request';
import { payloadEntity } from '../gateway-client';
import { labelNamesParam } from '../label-names';
import { mapItems, propertyOf, withProperties } from '../openapi/json-schema';
import { int, oneOf, PAGE, required, str } from '../param-docs';
import { defined } from '../params';
import type { Route } from '../route';
import { RECORD_NOT_FOUND } from '../v3-errors';
import { PROJECT_NOT_FOUND, projectIdOf, projectKey } from './project-key';

/**
 * The spec names single merge requests `merge_request/:merge_request_id`; later v3 servers also
 * took the plural, and existing clients use it: both are served.
 */
const single = (suffix = '') => [
  `/projects/:id/merge_request/:merge_request_id${suffix}`,
  `/projects/:id/merge_requests/:merge_request_id${suffix}`,
];

const get: Route['handle'] = async (p, gateway) => {
  const { project } = await gateway(GetMergeRequestDocument, {
    ...projectKey(p),
    mergeRequestId: p.id('merge_request_id'),
  });
  if (!project) throw PROJECT_NOT_FOUND();
  if (!project.mergeRequest) throw RECORD_NOT_FOUND();
  return { body: presentMergeRequest(project.mergeRequest) };
};

const changes: Route['handle'] = async (p, gateway) => {
  const { project } = await gateway(MergeRequestChangesDocument, {
    ...projectKey(p),
    mergeRequestId: p.id('merge_request_id'),
  });
  if (!project) throw PROJECT_NOT_FOUND();
  if (!project.mergeRequest) throw RECORD_NOT_FOUND();
  const { changes: files, ...mr } = project.mergeRequest;
  // The spec calls the diff entries `files`; GitLab's own responses (and its clients) say `changes`.
  return { body: { ...presentMergeRequest(mr), files, changes: files } };
};

const update: Route['handle'] = async (p, gateway) => {
  // The service refuses source_branch ("Source branch cannot be changed") once it has found the
  // merge request and checked the caller, in GitLab's order.
  const { updateMergeRequest } = await gateway(UpdateMergeRequestDocument, {
    input: defined({
      projectId: await projectIdOf(p, gateway),
      mergeRequestId: p.id('merge_request_id'),
      title: p.string('title'),
      description: p.string('description'),
      targetBranch: p.string('target_branch'),
      assigneeId: p.int('assignee_id'),
      // v3's state_event as sent: an unknown one gets v3's own 400, which the enum cannot carry.
      v3StateEvent: p.string('state_event'),
      labels: labelNamesParam(p),
      milestoneId: p.int('milestone_id'),
      sourceBranch: p.string('source_branch'),
    }),
  });
  return { body: presentMergeRequest(payloadEntity(updateMergeRequest.mergeRequest)) };
};

const accept: Route['handle'] = async (p, gateway) => {
  const { acceptMergeRequest } = await gateway(AcceptMergeRequestDocument, {
    input: {
      projectId: await projectIdOf(p, gateway),
      mergeRequestId: p.id('merge_request_id'),
      mergeCommitMessage: p.string('merge_commit_message') ?? null,
    },
  });
  return { body: presentMergeRequest(payloadEntity(acceptMergeRequest.mergeRequest)) };
};

/** Label names, comma-separated (labelNamesParam): an empty value removes them all. */
const LABELS = str('Label names, comma-separated; a name the project has no label for makes one.');

const UPDATE_PARAMS = {
  title: str(),
  description: str(),
  target_branch: str(),
  assignee_id: int(),
  state_event: str('close, reopen or merge.'),
  labels: LABELS,
  milestone_id: int(),
  source_branch: str('Refused: a merge request keeps its source branch.'),
};

export const mergeRequestRoutes: Route[] = [
  {
    // GitLab 7.14 filtered this list by iid and state only (lib/api/merge_requests.rb): `labels`
    // is not a filter here either (issues have one; merge requests got theirs in 8.x).
    method: 'get',
    path: '/projects/:id/merge_requests',
    versions: projectScope,
    summary: "Lists the project's merge requests",
    params: {
      iid: int('Only the one with this iid.'),
      state: oneOf(['opened', 'closed', 'merged', 'all'], 'all by default.'),
      order_by: oneOf(['created_at', 'updated_at'], 'created_at by default.'),
      sort: oneOf(['asc', 'desc'], 'desc by default.'),
      ...PAGE,
    },
    response: (g) => mapItems(g.select(ListMergeRequestsDocument, 'project.mergeRequests.nodes'), mergeRequestSchema),
    handle: async (p, gateway) => {
      const window = p.window();
      const { project } = await gateway(ListMergeRequestsDocument, {
        ...projectKey(p),
        iid: p.int('iid') ?? null,
        state: p.oneOf('state', ['opened', 'closed', 'merged', 'all'], 'all').toUpperCase() as MergeRequestStateFilter,
        orderBy: p.oneOf('order_by', ['created_at', 'updated_at'], 'created_at').toUpperCase() as
          'CREATED_AT' | 'UPDATED_AT',
        sort: p.oneOf('sort', ['asc', 'desc'], 'desc').toUpperCase() as 'ASC' | 'DESC',
        page: window.page,
        perPage: window.perPage,
      });
      if (!project) throw PROJECT_NOT_FOUND();
      return {
        body: project.mergeRequests.nodes.map(presentMergeRequest),
        page: { window, total: project.mergeRequests.total },
      };
    },
  },
  {
    // 201, as GitLab v3 answered and its clients accept; the spec's "200" remark for this create
    // contradicts its own rule that POST gives 201.
    method: 'post',
    path: '/projects/:id/merge_requests',
    summary: 'Opens a merge request',
    params: {
      source_branch: required(str()),
      target_branch: required(str()),
      title: required(str()),
      description: str(),
      assignee_id: int(),
      target_project_id: int('The project to merge into, for a fork: this one by default.'),
      labels: LABELS,
      milestone_id: int(),
    },
    response: (g) => mergeRequestSchema(g.select(CreateMergeRequestDocument, 'createMergeRequest.mergeRequest')),
    handle: async (p, gateway) => {
      p.require('source_branch', 'target_branch', 'title');
      const { createMergeRequest } = await gateway(CreateMergeRequestDocument, {
        input: {
          projectId: await projectIdOf(p, gateway),
          sourceBranch: p.string('source_branch')!,
          targetBranch: p.string('target_branch')!,
          title: p.string('title')!,
          ...defined({
            description: p.string('description'),
            assigneeId: p.int('assignee_id'),
            targetProjectId: p.int('target_project_id'),
            labels: labelNamesParam(p),
            milestoneId: p.int('milestone_id'),
          }),
        },
      });
      return { body: presentMergeRequest(payloadEntity(createMergeRequest.mergeRequest)) };
    },
  },
  ...single().map((path): Route => ({
    method: 'get',
    path,
    versions: projectScope,
    summary: 'A merge request',
    response: (g) => mergeRequestSchema(g.select(GetMergeRequestDocument, 'project.mergeRequest')),
    handle: get,
  })),
  ...single('/changes').map((path): Route => ({
    method: 'get',
    path,
    versions: mergeRequestChangesScope,
    summary: 'A merge request with its diff (as files and, as GitLab named it, changes)',
    response: (g) => {
      const mr = g.select(MergeRequestChangesDocument, 'project.mergeRequest');
      const files = propertyOf(mr, 'changes');
      return mergeRequestSchema(withProperties(mr, { files, changes: files }));
    },
    handle: changes,
  })),
  ...single('/merge').map((path): Route => ({
    method: 'put',
    path,
    summary: 'Merges a merge request; 405 when it cannot be merged',
    params: { merge_commit_message: str() },
    response: (g) => mergeRequestSchema(g.select(AcceptMergeRequestDocument, 'acceptMergeRequest.mergeRequest')),
    handle: accept,
  })),
  ...single().map((path): Route => ({
    method: 'put',
    path,
    summary: 'Changes, closes, reopens or merges a merge request',
    params: UPDATE_PARAMS,
    response: (g) => mergeRequestSchema(g.select(UpdateMergeRequestDocument, 'updateMergeRequest.mergeRequest')),
    handle: update,
  })),
];
