import type { KnownEvent } from '@hub/common';
import { feedEntryOf } from './events';

const known = (key: string, payload: Record<string, unknown>) =>
  ({
    key,
    event: {},
    payload: { v: 1, project_id: 7, actor_id: 3, actor_username: 'alice', ...payload },
  }) as unknown as KnownEvent;

describe('feedEntryOf: GitLab 7.14 Event#action_name and target_title', () => {
  it.each([
    ['mergerequests:merge_request.opened', 'opened', 'opened'],
    ['mergerequests:merge_request.closed', 'closed', 'closed'],
    ['mergerequests:merge_request.reopened', 'reopened', 'opened'],
    ['mergerequests:merge_request.merged', 'merged', 'accepted'],
  ])('%s (%s) shows as "%s"', (key, action, actionName) => {
    expect(feedEntryOf(known(key, { action, merge_request_id: 9, title: 'MR' }))).toMatchObject({
      actionName,
      targetType: 'MergeRequest',
      targetTitle: 'MR',
    });
  });

  it.each([
    ['notes:issue.opened', 'opened', 'opened'],
    ['notes:issue.closed', 'closed', 'closed'],
    ['notes:issue.reopened', 'reopened', 'opened'],
  ])('%s (%s) shows as "%s"', (key, action, actionName) => {
    expect(feedEntryOf(known(key, { action, issue_id: 9, title: 'Issue' }))).toMatchObject({
      actionName,
      targetType: 'Issue',
      targetTitle: 'Issue',
    });
  });

  it('gives a comment no target_title (a Note has no title)', () => {
    expect(
      feedEntryOf(known('notes:note.created', { note_id: 5, body: 'A long comment', system: false })),
    ).toMatchObject({
      actionName: 'commented on',
      targetId: 5,
      targetType: 'Note',
      targetTitle: null,
    });
  });

  it('records created, then the creator joining (GitLab made the creator a Master)', () => {
    const created = known('projects:project.created', { facts: { creatorId: 4 }, creator_username: 'bob' });
    expect(feedEntryOf(created)).toEqual([
      expect.objectContaining({ actionName: 'created', authorId: 3, authorUsername: 'alice' }),
      expect.objectContaining({ actionName: 'joined', authorId: 4, authorUsername: 'bob', targetTitle: null }),
    ]);
  });
});
