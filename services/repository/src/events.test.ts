import {
  notFound,
  type ApplicationSettings,
  type Logger,
  type SettingsClient,
  type Sql,
  type StreamedEvent,
} from '@hub/common';
import { createEventHandler, createEventOrder, firstPushProtection } from './events';
import type { Git } from './git';

const logger = { warn: jest.fn(), error: jest.fn(), info: jest.fn(), debug: jest.fn() } as unknown as Logger;

const settingsAnswering = (defaultBranchProtection: number) => ({
  get: async () => ({ defaultBranchProtection }) as ApplicationSettings,
});
const settingsFailing = () => ({
  get: async (): Promise<ApplicationSettings> => {
    throw new Error('identity is down');
  },
});

/**
 * A Sql that records each statement's values instead of running it; a transaction runs on the same
 * recorder. The project lock and tombstone check (holdProject) are left out of the record and find nothing.
 */
function recordingSql() {
  const statements: Array<{ text: string; values: unknown[] }> = [];
  const sql = Object.assign(
    (strings: TemplateStringsArray, ...values: unknown[]) => {
      const text = strings.join('?');
      if (!/pg_advisory_xact_lock|from deleted_projects/.test(text)) statements.push({ text, values });
      return Promise.resolve([]);
    },
    { begin: (run: (tx: unknown) => Promise<unknown>) => run(sql) },
  ) as unknown as Sql;
  return { sql, statements };
}

const firstPush = (overrides: Record<string, unknown> = {}): StreamedEvent => ({
  id: '1',
  streamId: '1-0',
  service: 'git_worker',
  occurredAt: '2026-01-01T00:00:00.000Z',
  type: 'push',
  payload: {
    project_id: 7,
    actor_id: 1,
    actor_username: 'root',
    before: '0'.repeat(40),
    after: 'a'.repeat(40),
    ref: 'refs/heads/main',
    checkout_sha: 'a'.repeat(40),
    commits: [],
    total_commits_count: 1,
    default_branch: 'main',
    first_push_to_default_branch: true,
    ...overrides,
  },
});

describe('default_branch_protection on a first push', () => {
  it('answers the setting while the settings can be read', async () => {
    for (const level of [0, 1, 2]) expect(await firstPushProtection(settingsAnswering(level), logger)).toBe(level);
  });

  it('answers full protection (2, GitLab’s default) when no settings copy can be had', async () => {
    expect(await firstPushProtection(settingsFailing(), logger)).toBe(2);
  });

  it.each([
    ['settings say 1', settingsAnswering(1), true],
    ['settings say 2', settingsAnswering(2), false],
    ['settings cannot be read', settingsFailing(), false],
  ])(
    'protects the default branch when %s (developers_can_push as the level says)',
    async (_case, settings, developersCanPush) => {
      const { sql, statements } = recordingSql();
      const handle = createEventHandler({
        sql,
        git: {} as Git,
        shards: { remember: () => {} },
        logger,
        settings: settings as unknown as SettingsClient,
      });
      await handle(firstPush());
      expect(statements).toHaveLength(1);
      expect(statements[0].text).toContain('insert into protected_branches');
      expect(statements[0].values).toEqual([7, 'main', developersCanPush]);
    },
  );

  it('protects nothing when the settings say 0, or when the push was not the first', async () => {
    const { sql, statements } = recordingSql();
    await createEventHandler({
      sql,
      git: {} as Git,
      shards: { remember: () => {} },
      logger,
      settings: settingsAnswering(0) as unknown as SettingsClient,
    })(firstPush());
    await createEventHandler({
      sql,
      git: {} as Git,
      shards: { remember: () => {} },
      logger,
      settings: settingsAnswering(2) as unknown as SettingsClient,
    })(firstPush({ first_push_to_default_branch: false }));
    expect(statements).toEqual([]);
  });
});

describe('project.created', () => {
  const created = (payload: Record<string, unknown>): StreamedEvent => ({
    id: '2',
    streamId: '2-0',
    service: 'projects',
    occurredAt: '2026-01-01T00:00:00.000Z',
    type: 'project.created',
    payload: {
      project_id: 9,
      name: 'fork',
      path: 'fork',
      path_with_namespace: 'u/fork',
      namespace_id: 3,
      actor_id: 1,
      actor_username: 'u',
      facts: {
        projectId: 9,
        ownerId: 1,
        visibilityLevel: 0,
        archived: false,
        issuesEnabled: true,
        mergeRequestsEnabled: true,
        snippetsEnabled: false,
        wikiEnabled: true,
        version: 1,
        deleted: false,
      },
      forked_from_project_id: 4,
      default_branch: 'master',
      import_url: null,
      repository_storage: 'shard2',
      ...payload,
    },
  });

  it('records the shard before making the repository there, and remembers it', async () => {
    const { sql, statements } = recordingSql();
    const remembered: Array<[number, string]> = [];
    const git = { forkRepository: jest.fn(async () => {}) } as unknown as Git;
    await createEventHandler({
      sql,
      git,
      shards: { remember: (id, storage) => void remembered.push([id, storage]) },
      logger,
      settings: settingsAnswering(2) as unknown as SettingsClient,
    })(created({}));
    expect(statements[0]).toMatchObject({
      text: expect.stringContaining('insert into project_storages'),
      values: [9, 'shard2'],
    });
    expect(remembered).toEqual([[9, 'shard2']]);
    expect(git.forkRepository).toHaveBeenCalledWith(9, 4);
  });

  it('makes an empty fork only when the source has no repository; a shard out of reach fails the event (redelivered)', async () => {
    const { sql } = recordingSql();
    const handle = (forkRepository: () => Promise<void>, createRepository = jest.fn(async () => {})) =>
      createEventHandler({
        sql,
        git: { forkRepository, createRepository } as unknown as Git,
        shards: { remember: () => {} },
        logger,
        settings: settingsAnswering(2) as unknown as SettingsClient,
      });
    const empty = jest.fn(async () => {});
    await handle(async () => Promise.reject(notFound('Repository')), empty)(created({}));
    expect(empty).toHaveBeenCalledWith(9, 'master');
    const never = jest.fn(async () => {});
    await expect(
      handle(async () => Promise.reject(new Error('connect ECONNREFUSED')), never)(created({})),
    ).rejects.toThrow('ECONNREFUSED');
    expect(never).not.toHaveBeenCalled();
  });

  it('orders a project’s events by the project, and a fork’s creation after its source’s events too', () => {
    const order = createEventOrder(logger);
    expect(order(created({}))).toEqual(['project:9', 'project:4']);
    expect(order(created({ forked_from_project_id: null }))).toEqual(['project:9']);
    expect(order(firstPush())).toEqual(['project:7']);
    expect(order({ ...created({}), type: 'project.deleted' })).toEqual(['project:9']);
    // Events the handler ignores wait for nothing.
    expect(
      order({ ...firstPush(), type: 'tag_push', payload: { ...firstPush().payload, ref: 'refs/tags/v1' } }),
    ).toEqual([]);
    const feedEntry = {
      v: 1,
      project_id: 7,
      event_id: 12,
      action_name: 'pushed to',
      target_type: null,
      target_id: null,
      actor_id: 1,
      actor_username: 'r',
    };
    expect(order({ ...firstPush(), service: 'projects', type: 'project_event.created', payload: feedEntry })).toEqual(
      [],
    );
  });
});
