import type { Logger, StreamedEvent } from '@hub/common';
import { testProjectFacts } from '@hub/common/testing';
import { createTreeIds } from './tree-ids';

const logger = { warn: jest.fn(), error: jest.fn(), info: jest.fn(), debug: jest.fn() } as unknown as Logger;
const COMMIT = 'c'.repeat(40);
const TREE = 't'.repeat(40);

const event = (service: string, type: string, payload: Record<string, unknown>): StreamedEvent => ({
  id: '1',
  streamId: '1-0',
  service,
  occurredAt: '2026-01-01T00:00:00.000Z',
  type,
  payload,
});
const push = (type: 'push' | 'tag_push', projectId: number) =>
  event('git_worker', type, {
    project_id: projectId,
    actor_id: 1,
    actor_username: 'root',
    before: '0'.repeat(40),
    after: 'a'.repeat(40),
    ref: type === 'push' ? 'refs/heads/main' : 'refs/tags/v1',
    checkout_sha: 'a'.repeat(40),
    commits: [],
    total_commits_count: 1,
    default_branch: 'main',
    first_push_to_default_branch: false,
  });

describe('the tree ids kept for folders at commits named by their full id', () => {
  it('keeps a folder and the absence of one at a full commit id, never at a branch, tag or short id', () => {
    const ids = createTreeIds();
    ids.set(1, COMMIT, '', TREE);
    ids.set(1, COMMIT, 'nope', null);
    for (const ref of ['master', 'v1.0', COMMIT.slice(0, 12), COMMIT.toUpperCase()]) ids.set(1, ref, '', TREE);
    expect([ids.get(1, COMMIT, ''), ids.get(1, COMMIT, 'nope'), ids.get(1, COMMIT, 'src')]).toEqual([
      TREE,
      null,
      undefined,
    ]);
    expect(ids.get(2, COMMIT, '')).toBeUndefined();
    expect(ids.get(1, 'master', '')).toBeUndefined();
    expect(ids.size).toBe(2);
  });

  it("drops a project's folders on its pushes, tag pushes and deletion, and nothing of other projects", () => {
    const ids = createTreeIds();
    const { onEvent, services } = ids.changeHandler(logger);
    expect(services).toEqual(['git_worker', 'projects']);
    const cases: Array<[number, StreamedEvent]> = [
      [1, push('push', 1)],
      [2, push('tag_push', 2)],
      [
        3,
        event('projects', 'project.deleted', {
          project_id: 3,
          name: 'gone',
          path: 'gone',
          path_with_namespace: 'u/gone',
          namespace_id: 3,
          actor_id: 1,
          actor_username: 'u',
          facts: testProjectFacts(3, 1, { version: 2, deleted: true }),
          forked_from_project_id: null,
          default_branch: 'master',
          import_url: null,
          repository_storage: 'default',
        }),
      ],
    ];
    for (const [projectId] of cases) ids.set(projectId, COMMIT, '', TREE);
    ids.set(9, COMMIT, '', TREE);
    for (const [projectId, dropping] of cases) {
      onEvent(dropping);
      expect(ids.get(projectId, COMMIT, '')).toBeUndefined();
    }
    expect(ids.get(9, COMMIT, '')).toBe(TREE);
    expect(ids.size).toBe(1);
  });

  it('starts again when full, so a process keeps a bounded number', () => {
    const ids = createTreeIds({ kept: 3 });
    for (let i = 0; i < 3; i++) ids.set(i, COMMIT, '', TREE);
    expect(ids.size).toBe(3);
    ids.set(7, COMMIT, '', TREE);
    expect(ids.size).toBe(1);
    expect(ids.get(7, COMMIT, '')).toBe(TREE);
  });
});
