import {
  createVersionStamps,
  DIRECTORY_VERSION,
  PROJECT_ACTIVITY_VERSION,
  PROJECT_CATALOG_VERSION,
  projectVersionKey,
  versionKeysOf,
} from './resource-versions';

const keysOf = (service: string, type: string, payload: Record<string, unknown>) =>
  versionKeysOf({ service, type, payload }).sort();

describe('versionKeysOf', () => {
  it('advances a project and project activity for what happens in a project', () => {
    for (const [service, type] of [
      ['notes', 'issue.updated'],
      ['notes', 'milestone.updated'],
      ['git_worker', 'push'],
      ['membership', 'member.added'],
      ['repository', 'branch.protected'],
    ])
      expect(keysOf(service, type, { project_id: 7 })).toEqual([PROJECT_ACTIVITY_VERSION, projectVersionKey(7)].sort());
  });

  it('advances both projects of a merge request from a fork', () => {
    expect(
      keysOf('mergerequests', 'merge_request.updated', { project_id: 7, target_project_id: 7, source_project_id: 9 }),
    ).toEqual([PROJECT_ACTIVITY_VERSION, projectVersionKey(7), projectVersionKey(9)].sort());
  });

  it('advances the catalog for a project’s own events', () => {
    expect(keysOf('projects', 'project.updated', { project_id: 3 })).toEqual(
      [PROJECT_ACTIVITY_VERSION, PROJECT_CATALOG_VERSION, projectVersionKey(3)].sort(),
    );
  });

  it('advances the directory for users and groups changed, group members and settings', () => {
    for (const type of [
      'user.updated',
      'user.blocked',
      'user.deleted',
      'group.updated',
      'group.deleted',
      'settings.updated',
    ])
      expect([type, keysOf('identity', type, { user_id: 1 })]).toEqual([type, [DIRECTORY_VERSION]]);
    expect(keysOf('membership', 'group_member.added', { group_id: 1, user_id: 2 })).toEqual([DIRECTORY_VERSION]);
  });

  it('leaves everything for what no answer shows yet: users and groups made, keys, token resets', () => {
    for (const type of ['user.created', 'group.created', 'key.created', 'key.deleted', 'user.private_token_reset'])
      expect([type, keysOf('identity', type, { user_id: 2 })]).toEqual([type, []]);
  });

  it('leaves everything for a feed entry: the event it was derived from advanced the project when projects acknowledged it', () => {
    expect(keysOf('projects', 'project_event.created', { project_id: 3, event_id: 11 })).toEqual([]);
  });

  it('leaves everything for hook delivery attempts, which no polled answer shows', () => {
    expect(keysOf('hooks', 'hook_delivery.attempted', { project_id: 7, hook_id: 1 })).toEqual([]);
  });

  it('ignores ids that name no project', () => {
    expect(keysOf('notes', 'note.created', { project_id: 0 })).toEqual([]);
    expect(keysOf('notes', 'note.created', { project_id: '7' })).toEqual([]);
  });
});

describe('createVersionStamps', () => {
  it('never repeats a stamp, within a source or across two, even with a suffix appended', () => {
    const [one, two] = [createVersionStamps(), createVersionStamps()];
    const seen = new Set<string>();
    // The reader appends a key's position: stamp 1 + "11" must not be stamp 11 + "1".
    for (let i = 0; i < 40; i++)
      for (const source of [one, two]) {
        const stamp = source();
        for (const suffix of ['1', '11']) seen.add(stamp + suffix);
      }
    expect(seen.size).toBe(40 * 2 * 2);
  });
});
