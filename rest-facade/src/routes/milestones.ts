import {
  CreateMilestoneDocument,
  GetMilestoneDocument,
  ListMilestonesDocument,
  MilestoneIssuesDocument,
  UpdateMilestoneDocument,
  type MilestoneStateEvent,
} from '../generated/operations';
import { payloadEntity } from '../gateway-client';
import { issueSchema, presentIssue } from '../entities/issue';
import { milestoneSchema, presentMilestone } from '../entities/milestone';
import { mapItems } from '../openapi/json-schema';
import { int, PAGE, str } from '../param-docs';
import { defined } from '../params';
import type { Route } from '../route';
import { RECORD_NOT_FOUND } from '../v3-errors';
import { PROJECT_NOT_FOUND, projectIdOf, projectKey } from './project-key';

/** v3's state_event: close or activate; any other value changes no state (GitLab's case had no else). */
const STATE_EVENTS = new Map<string | undefined, MilestoneStateEvent>([
  ['close', 'CLOSE'],
  ['activate', 'ACTIVATE'],
]);

/** GitLab's filter_milestones_state: active or closed; any other value filters nothing (its case had an else). */
const STATE_FILTER = { active: 'ACTIVE', closed: 'CLOSED' } as const;

/**
 * GitLab 7.14's lib/api/milestones.rb, with the state and iid filters later v3 servers added.
 * Milestones are addressed by their global id. title is required on create after the permission
 * check (the service checks it), as GitLab's authorize! came before required_attributes!.
 */
export const milestoneRoutes: Route[] = [
  {
    method: 'get',
    path: '/projects/:id/milestones',
    summary: "Lists the project's milestones",
    params: { state: str('active or closed; any other value filters nothing.'), iid: int(), ...PAGE },
    response: (g) => mapItems(g.select(ListMilestonesDocument, 'project.milestones.nodes'), milestoneSchema),
    handle: async (p, gateway) => {
      const window = p.window();
      const state = p.string('state');
      const { project } = await gateway(ListMilestonesDocument, {
        ...projectKey(p),
        state: state === 'active' || state === 'closed' ? STATE_FILTER[state] : null,
        iid: p.int('iid') ?? null,
        page: window.page,
        perPage: window.perPage,
      });
      if (!project) throw PROJECT_NOT_FOUND();
      return {
        body: project.milestones.nodes.map(presentMilestone),
        page: { window, total: project.milestones.total },
      };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/milestones/:milestone_id',
    summary: 'A milestone',
    response: (g) => milestoneSchema(g.select(GetMilestoneDocument, 'project.milestone')),
    handle: async (p, gateway) => {
      const { project } = await gateway(GetMilestoneDocument, { ...projectKey(p), milestoneId: p.id('milestone_id') });
      if (!project) throw PROJECT_NOT_FOUND();
      if (!project.milestone) throw RECORD_NOT_FOUND();
      return { body: presentMilestone(project.milestone) };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/milestones/:milestone_id/issues',
    summary: "Lists the milestone's issues",
    params: PAGE,
    response: (g) => mapItems(g.select(MilestoneIssuesDocument, 'project.milestone.issues.nodes'), issueSchema),
    handle: async (p, gateway) => {
      const window = p.window();
      const { project } = await gateway(MilestoneIssuesDocument, {
        ...projectKey(p),
        milestoneId: p.id('milestone_id'),
        page: window.page,
        perPage: window.perPage,
      });
      if (!project) throw PROJECT_NOT_FOUND();
      if (!project.milestone) throw RECORD_NOT_FOUND();
      return {
        body: project.milestone.issues.nodes.map(presentIssue),
        page: { window, total: project.milestone.issues.total },
      };
    },
  },
  {
    method: 'post',
    path: '/projects/:id/milestones',
    summary: 'Creates a milestone',
    params: { title: str('Required.'), description: str(), due_date: str('YYYY-MM-DD.') },
    response: (g) => milestoneSchema(g.select(CreateMilestoneDocument, 'createMilestone.milestone')),
    handle: async (p, gateway) => {
      const { createMilestone } = await gateway(CreateMilestoneDocument, {
        input: defined({
          projectId: await projectIdOf(p, gateway),
          title: p.string('title'),
          description: p.string('description'),
          dueDate: p.string('due_date'),
        }),
      });
      return { body: presentMilestone(payloadEntity(createMilestone.milestone)) };
    },
  },
  {
    method: 'put',
    path: '/projects/:id/milestones/:milestone_id',
    summary: 'Changes, closes or reopens a milestone',
    params: { title: str(), description: str(), due_date: str('YYYY-MM-DD.'), state_event: str('close or activate.') },
    response: (g) => milestoneSchema(g.select(UpdateMilestoneDocument, 'updateMilestone.milestone')),
    handle: async (p, gateway) => {
      const { updateMilestone } = await gateway(UpdateMilestoneDocument, {
        input: defined({
          projectId: await projectIdOf(p, gateway),
          milestoneId: p.id('milestone_id'),
          title: p.string('title'),
          description: p.string('description'),
          dueDate: p.string('due_date'),
          stateEvent: STATE_EVENTS.get(p.string('state_event')),
        }),
      });
      return { body: presentMilestone(payloadEntity(updateMilestone.milestone)) };
    },
  },
];
