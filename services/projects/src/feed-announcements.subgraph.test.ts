import { resolve } from 'node:path';
import type { Logger, Sql, StreamedEvent } from '@hub/common';
import { createTestSchema } from '@hub/common/testing';
import { createEventHandler } from './events';
import type { ProjectsService } from './projects-service';

// Each entry appended to a project's feed is announced on projects' own stream, by an outbox row
// recorded in the transaction that appends it: `project_event.created`, which GraphQL subscriptions
// follow. No entry, no announcement; and the announcement, read back by projects, makes nothing.

const PROJECT = 1;
const GONE = 2;

describe('projects: feed entries announced as project_event.created', () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  let handle: (event: StreamedEvent) => Promise<void>;
  const logged: unknown[][] = [];
  /** A logger that keeps every line, whatever its level. */
  const keeping = Object.fromEntries(
    ['trace', 'debug', 'info', 'warn', 'error', 'fatal'].map((level) => [
      level,
      (...line: unknown[]) => logged.push(line),
    ]),
  ) as unknown as Logger;
  let delivered = 0;

  beforeAll(async () => {
    db = await createTestSchema('projects', resolve(__dirname, '..', 'migrations'));
    handle = createEventHandler({
      sql: db.sql,
      // Feed entries other than pushes ask the service nothing.
      projects: {} as ProjectsService,
      externalUrl: 'http://hub.test',
      logger: keeping,
    });
    await db.sql`insert into projects (id, namespace_id, namespace_path, namespace_name, owner_id, creator_id, name, path)
      values (${PROJECT}, 1, 'ns', 'ns', 3, 3, 'p', 'p')`;
  });
  afterAll(async () => {
    await db?.drop();
  });
  beforeEach(async () => {
    await db.sql`delete from outbox`;
    await db.sql`delete from project_events`;
    logged.length = 0;
  });

  /** An event as the stream delivers it, under a fresh outbox id unless one is given. */
  const streamed = (service: string, type: string, payload: Record<string, unknown>, id = String(++delivered)) => ({
    id,
    streamId: `${id}-0`,
    service,
    type,
    payload: { v: 1, ...payload },
    occurredAt: '2026-11-27T10:00:00.000Z',
  });
  const issueOpened = (projectId: number) =>
    streamed('notes', 'issue.opened', {
      project_id: projectId,
      actor_id: 3,
      actor_username: 'alice',
      action: 'opened',
      issue_id: 9,
      iid: 1,
      title: 'Broken',
      state: 'opened',
      attributes: {
        id: 9,
        iid: 1,
        project_id: projectId,
        title: 'Broken',
        description: '',
        state: 'opened',
        author_id: 3,
        assignee_id: null,
        milestone_id: null,
        labels: [],
        created_at: '2026-11-27T10:00:00.000Z',
        updated_at: '2026-11-27T10:00:00.000Z',
      },
    });
  const outbox = () => db.sql<{ eventType: string; payload: Record<string, unknown> }[]>`
    select event_type, payload from outbox order by id`;
  const feed = async () =>
    (await db.sql<{ id: string }[]>`select id from project_events order by id`).map((row) => Number(row.id));

  it('announces an appended entry once, with its id, action, target and author, also when the event comes again', async () => {
    const event = issueOpened(PROJECT);
    await handle(event);
    // At-least-once delivery: the same event again appends and announces nothing.
    await handle(event);
    const [eventId] = await feed();
    expect(await feed()).toHaveLength(1);
    expect(await outbox()).toEqual([
      {
        eventType: 'project_event.created',
        payload: {
          v: 1,
          project_id: PROJECT,
          event_id: eventId,
          action_name: 'opened',
          target_type: 'Issue',
          target_id: 9,
          actor_id: 3,
          actor_username: 'alice',
        },
      },
    ]);
  });

  it('announces each entry in the order appended: a member joining, then leaving', async () => {
    await handle(
      streamed('membership', 'member.added', {
        project_id: PROJECT,
        user_id: 4,
        user_username: 'bob',
        access_level: 30,
        actor_id: 3,
        actor_username: 'alice',
      }),
    );
    await handle(
      streamed('membership', 'member.removed', {
        project_id: PROJECT,
        user_id: 4,
        user_username: null,
        access_level: 30,
        actor_id: 3,
        actor_username: 'alice',
      }),
    );
    const ids = await feed();
    expect(ids).toHaveLength(2);
    // joined and left are the member's entries; a username the event did not carry is null, not ''.
    expect((await outbox()).map(({ payload }) => payload)).toEqual([
      expect.objectContaining({ event_id: ids[0], action_name: 'joined', actor_id: 4, actor_username: 'bob' }),
      expect.objectContaining({ event_id: ids[1], action_name: 'left', actor_id: 4, actor_username: null }),
    ]);
  });

  it('announces nothing when the project is gone, as nothing is appended', async () => {
    await handle(issueOpened(GONE));
    expect(await feed()).toEqual([]);
    expect(await outbox()).toEqual([]);
  });

  it('passes over its own announcement read back from its stream: no entry, no announcement, not a word', async () => {
    await handle(issueOpened(PROJECT));
    const [announced] = await outbox();
    await db.sql`delete from outbox`;
    logged.length = 0;
    await handle(streamed('projects', announced!.eventType, announced!.payload));
    expect(await feed()).toHaveLength(1);
    expect(await outbox()).toEqual([]);
    expect(logged).toEqual([]);
  });
});
