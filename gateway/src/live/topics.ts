import {
  DomainError,
  ErrorCode,
  notFound,
  parseGlobalId,
  toGlobalId,
  type KnownEvent,
  type NodeType,
} from '@hub/common';

/**
 * What each field of `Subscription` (subscriptions.graphql) follows: the stream its events come
 * from, which of them concern a subscription's arguments, and what a message made of one holds.
 * A message's objects are named by global ids and read through the supergraph when it is sent
 * (live-messages.ts); `primary` is the one whose visibility decides whether it is sent at all.
 */
export interface Topic {
  /** The service whose stream (`events:<service>`) the field follows. */
  service: string;
  /**
   * What a subscription with these arguments watches, checked when it starts (the subscriber must
   * see `id`, and `gate` on it when given, or gets `missing`, as for an object that does not exist);
   * throws BAD_USER_INPUT for arguments that name nothing.
   */
  scope(args: Record<string, unknown>): Scope;
  /** The message an event makes for a subscription with these arguments; null when it is not one of its. */
  message(event: KnownEvent, args: Record<string, unknown>): TopicMessage | null;
  /**
   * The route of a subscription with these arguments: every event `message` takes for it has this
   * route among its `routes` (they may have it and still be turned down by `message`).
   */
  route(args: Record<string, unknown>): string;
  /** The routes of an event for this topic; none for an event it never makes a message of. */
  routes(event: KnownEvent): string[];
  /** The object field whose object must be visible to the subscriber for a message to be sent. */
  primary: string;
  /** A selection on the primary object that must answer without error, as for a scope. */
  gate?: string;
}

export interface Scope {
  id: string;
  /** A selection on the scope object that must answer without error (a repository's code, say). */
  gate?: string;
  /** The refusal for a subscriber who may not see it: made when needed, as an error's stack costs memory while the subscription runs. */
  missing(): DomainError;
}

export interface TopicMessage {
  /** The message's own fields, by field name. */
  fields: Record<string, unknown>;
  /** The global ids of its object fields, by field name; null for an object it does not have. */
  objects: Record<string, string | null>;
}

/** Exactly one of `names` among `args`, as a positive integer (BAD_USER_INPUT otherwise). */
function oneOf(args: Record<string, unknown>, names: string[]): { name: string; id: number } {
  const given = names.filter((name) => args[name] !== undefined && args[name] !== null);
  if (given.length !== 1)
    throw new DomainError(ErrorCode.BAD_USER_INPUT, `Give exactly one of ${names.map((n) => `"${n}"`).join(', ')}`);
  return { name: given[0]!, id: Number(args[given[0]!]) };
}

/** A global id argument naming one of `types`, or BAD_USER_INPUT naming the argument. */
function globalIdOf(args: Record<string, unknown>, argument: string, types: NodeType[]) {
  const parsed = parseGlobalId(args[argument]);
  if (!parsed || !types.includes(parsed.type))
    throw new DomainError(
      ErrorCode.BAD_USER_INPUT,
      `"${argument}" is not the global id of ${types.join(' or ')}: ${JSON.stringify(args[argument])}`,
      { argument },
    );
  return parsed;
}

const userOf = (payload: { actor_id: number | null }) =>
  payload.actor_id ? toGlobalId('User', payload.actor_id) : null;

// Ids outside a Postgres integer name nothing: the owner would refuse to look them up, so such a
// scope is missing, as v3 answers 404 for them.
const projectScope = (projectId: number, gate?: string): Scope => ({
  id: toGlobalId('Project', Math.max(1, projectId)),
  gate,
  missing: () => notFound('Project'),
});

/** Code is what a push reveals: the repository must answer, as it does only for those who may read code. */
const CODE_GATE = 'repository { projectId }';

const MERGE_REQUEST_ACTIONS: Record<string, string> = {
  'mergerequests:merge_request.opened': 'OPENED',
  'mergerequests:merge_request.updated': 'UPDATED',
  'mergerequests:merge_request.closed': 'CLOSED',
  'mergerequests:merge_request.reopened': 'REOPENED',
  'mergerequests:merge_request.merged': 'MERGED',
};
const ISSUE_ACTIONS: Record<string, string> = {
  'notes:issue.opened': 'OPENED',
  'notes:issue.updated': 'UPDATED',
  'notes:issue.closed': 'CLOSED',
  'notes:issue.reopened': 'REOPENED',
};

const stamp = (event: KnownEvent) => ({ occurredAt: event.event.occurredAt });

export const TOPICS: Record<string, Topic> = {
  projectEvents: {
    primary: 'event',
    service: 'projects',
    scope: (args) => projectScope(Number(args.projectId)),
    route: (args) => `project:${String(args.projectId)}`,
    routes: (event) => (event.key === 'projects:project_event.created' ? [`project:${event.payload.project_id}`] : []),
    message(event, args) {
      if (event.key !== 'projects:project_event.created' || event.payload.project_id !== args.projectId) return null;
      return {
        fields: stamp(event),
        objects: { event: toGlobalId('ProjectEvent', event.payload.event_id), actor: userOf(event.payload) },
      };
    },
  },

  pushed: {
    primary: 'project',
    gate: CODE_GATE,
    service: 'git_worker',
    scope: (args) => projectScope(Number(args.projectId), CODE_GATE),
    route: (args) => `project:${String(args.projectId)}`,
    routes: (event) =>
      event.key === 'git_worker:push' || event.key === 'git_worker:tag_push'
        ? [`project:${event.payload.project_id}`]
        : [],
    message(event, args) {
      if (event.key !== 'git_worker:push' && event.key !== 'git_worker:tag_push') return null;
      const push = event.payload;
      if (push.project_id !== args.projectId) return null;
      return {
        fields: {
          ...stamp(event),
          ref: push.ref,
          tag: event.key === 'git_worker:tag_push',
          before: push.before,
          after: push.after,
          totalCommitsCount: push.total_commits_count,
        },
        objects: { project: toGlobalId('Project', push.project_id), actor: userOf(push) },
      };
    },
  },

  mergeRequestUpdated: {
    primary: 'mergeRequest',
    service: 'mergerequests',
    scope(args) {
      const { name, id } = oneOf(args, ['projectId', 'mergeRequestId']);
      if (name === 'projectId') return projectScope(id);
      return { id: toGlobalId('MergeRequest', Math.max(1, id)), missing: () => notFound('Merge Request') };
    },
    route: (args) =>
      args.projectId != null ? `project:${String(args.projectId)}` : `merge_request:${String(args.mergeRequestId)}`,
    routes(event) {
      if (!MERGE_REQUEST_ACTIONS[event.key] || !event.key.startsWith('mergerequests:merge_request.')) return [];
      const payload = (event as Extract<KnownEvent, { key: `mergerequests:${string}` }>).payload;
      return [`project:${payload.project_id}`, `merge_request:${payload.merge_request_id}`];
    },
    message(event, args) {
      const action = MERGE_REQUEST_ACTIONS[event.key];
      if (!action || !event.key.startsWith('mergerequests:merge_request.')) return null;
      const payload = (event as Extract<KnownEvent, { key: `mergerequests:${string}` }>).payload;
      if (
        args.projectId != null
          ? payload.project_id !== args.projectId
          : payload.merge_request_id !== args.mergeRequestId
      )
        return null;
      return {
        fields: { ...stamp(event), action },
        objects: { mergeRequest: toGlobalId('MergeRequest', payload.merge_request_id), actor: userOf(payload) },
      };
    },
  },

  issueUpdated: {
    primary: 'issue',
    service: 'notes',
    scope(args) {
      const { name, id } = oneOf(args, ['projectId', 'issueId']);
      if (name === 'projectId') return projectScope(id);
      return { id: toGlobalId('Issue', Math.max(1, id)), missing: () => notFound('Issue') };
    },
    route: (args) => (args.projectId != null ? `project:${String(args.projectId)}` : `issue:${String(args.issueId)}`),
    routes(event) {
      if (!ISSUE_ACTIONS[event.key]) return [];
      const payload = (event as Extract<KnownEvent, { key: `notes:issue.${string}` }>).payload;
      return [`project:${payload.project_id}`, `issue:${payload.issue_id}`];
    },
    message(event, args) {
      const action = ISSUE_ACTIONS[event.key];
      if (!action) return null;
      const payload = (event as Extract<KnownEvent, { key: `notes:issue.${string}` }>).payload;
      if (args.projectId != null ? payload.project_id !== args.projectId : payload.issue_id !== args.issueId)
        return null;
      return {
        fields: { ...stamp(event), action },
        objects: { issue: toGlobalId('Issue', payload.issue_id), actor: userOf(payload) },
      };
    },
  },

  noteAdded: {
    primary: 'note',
    service: 'notes',
    scope(args) {
      const { type, id } = globalIdOf(args, 'noteableId', ['Issue', 'MergeRequest', 'Snippet']);
      const missing = { Issue: 'Issue', MergeRequest: 'Merge Request', Snippet: 'Snippet' }[type as string]!;
      return { id: toGlobalId(type, id), missing: () => notFound(missing) };
    },
    route(args) {
      const { type, id } = parseGlobalId(args.noteableId)!;
      return `${type}:${id}`;
    },
    routes: (event) =>
      event.key === 'notes:note.created' ? [`${event.payload.noteable_type}:${event.payload.noteable_id}`] : [],
    message(event, args) {
      if (event.key !== 'notes:note.created') return null;
      const { type, id } = parseGlobalId(args.noteableId)!;
      if (event.payload.noteable_type !== type || event.payload.noteable_id !== id) return null;
      return {
        fields: stamp(event),
        objects: { note: toGlobalId('Note', event.payload.note_id), actor: userOf(event.payload) },
      };
    },
  },

  hookDeliveryAttempted: {
    primary: 'delivery',
    service: 'hooks',
    scope(args) {
      const { type, id } = globalIdOf(args, 'hookId', ['Hook', 'SystemHook']);
      return { id: toGlobalId(type, id), missing: () => notFound('Hook') };
    },
    route(args) {
      const { type, id } = parseGlobalId(args.hookId)!;
      return `${type === 'SystemHook' ? 'system_hook' : 'hook'}:${id}`;
    },
    routes: (event) =>
      event.key === 'hooks:hook_delivery.attempted'
        ? [`${event.payload.system_hook ? 'system_hook' : 'hook'}:${event.payload.hook_id}`]
        : [],
    message(event, args) {
      if (event.key !== 'hooks:hook_delivery.attempted') return null;
      const { type, id } = parseGlobalId(args.hookId)!;
      const attempt = event.payload;
      if (attempt.hook_id !== id || attempt.system_hook !== (type === 'SystemHook')) return null;
      return {
        fields: {
          occurredAt: event.event.occurredAt,
          attempt: attempt.attempt,
          state: attempt.state,
          statusCode: attempt.status_code,
        },
        objects: { delivery: toGlobalId('HookDelivery', attempt.delivery_id) },
      };
    },
  },
};

/** The services whose streams some subscription follows. */
export const TOPIC_SERVICES = [...new Set(Object.values(TOPICS).map((topic) => topic.service))];

/** Topics by the service whose stream they follow, each with its field name. */
const TOPICS_OF = new Map(
  TOPIC_SERVICES.map((service) => [service, Object.entries(TOPICS).filter(([, topic]) => topic.service === service)]),
);

/**
 * The routes of an event of `service`'s stream for every topic following it, each prefixed with
 * its topic's field name (a subscription follows `<field>:<its topic's route>`; live-streams.ts).
 */
export function routesOf(service: string, event: KnownEvent): string[] {
  const routes: string[] = [];
  for (const [field, topic] of TOPICS_OF.get(service) ?? [])
    for (const route of topic.routes(event)) routes.push(`${field}:${route}`);
  return routes;
}
