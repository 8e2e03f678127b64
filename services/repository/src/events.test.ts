import type { ApplicationSettings, Logger, SettingsClient, Sql, StreamedEvent } from '@hub/common';
import { createEventHandler, firstPushProtection } from './events';
import type { Git } from './git';

const logger = { warn: jest.fn(), error: jest.fn(), info: jest.fn(), debug: jest.fn() } as unknown as Logger;

const settingsAnswering = (defaultBranchProtection: number) => ({ get: async () => ({ defaultBranchProtection }) as ApplicationSettings });
const settingsFailing = () => ({
  get: async (): Promise<ApplicationSettings> => {
    throw new Error('identity is down');
  },
});

/** A Sql that records each statement's values instead of running it. */
function recordingSql() {
  const statements: Array<{ text: string; values: unknown[] }> = [];
  const sql = ((strings: TemplateStringsArray, ...values: unknown[]) => {
    statements.push({ text: strings.join('?'), values });
    return Promise.resolve([]);
  }) as unknown as Sql;
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
  ])('protects the default branch when %s (developers_can_push as the level says)', async (_case, settings, developersCanPush) => {
    const { sql, statements } = recordingSql();
    const handle = createEventHandler({ sql, git: {} as Git, shards: { remember: () => {} }, logger, settings: settings as unknown as SettingsClient });
    await handle(firstPush());
    expect(statements).toHaveLength(1);
    expect(statements[0].text).toContain('insert into protected_branches');
    expect(statements[0].values).toEqual([7, 'main', developersCanPush]);
  });

  it('protects nothing when the settings say 0, or when the push was not the first', async () => {
    const { sql, statements } = recordingSql();
    await createEventHandler({ sql, git: {} as Git, shards: { remember: () => {} }, logger, settings: settingsAnswering(0) as unknown as SettingsClient })(firstPush());
    await createEventHandler({ sql, git: {} as Git, shards: { remember: () => {} }, logger, settings: settingsAnswering(2) as unknown as SettingsClient })(firstPush({ first_push_to_default_branch: false }));
    expect(statements).toEqual([]);
  });
});
