import type { ProjectSummary, UserSummary } from '@hub/common';
import { buildPayload, projectsNamedBy } from './payloads';

const project = (id: number, path: string): ProjectSummary => ({
  id,
  name: path,
  path,
  pathWithNamespace: `alice/${path}`,
  namespaceName: 'Alice Liddell',
  nameWithNamespace: `Alice Liddell / ${path}`,
  description: null,
  defaultBranch: 'master',
  visibilityLevel: 10,
  webUrl: `http://hub.test/alice/${path}`,
  httpUrlToRepo: `http://hub.test/alice/${path}.git`,
  sshUrlToRepo: `git@hub.test:alice/${path}.git`,
  repositoryStorage: 'default',
});
const alice: UserSummary = {
  id: 7,
  username: 'alice',
  name: 'Alice Liddell',
  state: 'active',
  email: 'alice@hub.test',
  avatarUrl: 'http://avatar/alice',
};
const projects = new Map([
  [1, project(1, 'app')],
  [2, project(2, 'fork')],
]);
const commit = { id: 'c1', message: 'Fix\n', timestamp: '2026-01-01T00:00:00Z', author: { name: 'A', email: 'a@x' } };

describe('GitLab hook payloads', () => {
  it('push: the pusher, the repository and each commit with its web URL', () => {
    const payload = buildPayload(
      {
        kind: 'push',
        projectId: 1,
        actorId: 7,
        before: 'b',
        after: 'c1',
        ref: 'refs/heads/master',
        checkoutSha: 'c1',
        message: null,
        commits: [commit],
        totalCommitsCount: 30,
      },
      { projects, actor: alice },
    );
    expect(payload).toEqual({
      object_kind: 'push',
      before: 'b',
      after: 'c1',
      ref: 'refs/heads/master',
      checkout_sha: 'c1',
      message: null,
      user_id: 7,
      user_name: 'Alice Liddell',
      user_email: 'alice@hub.test',
      user_avatar: 'http://avatar/alice',
      project_id: 1,
      repository: {
        name: 'app',
        url: 'git@hub.test:alice/app.git',
        description: '',
        homepage: 'http://hub.test/alice/app',
        git_http_url: 'http://hub.test/alice/app.git',
        git_ssh_url: 'git@hub.test:alice/app.git',
        visibility_level: 10,
      },
      commits: [{ ...commit, url: 'http://hub.test/alice/app/commit/c1' }],
      total_commits_count: 30,
    });
    expect(Object.keys(payload!)[0]).toBe('object_kind');
  });

  it("tag push: the tagged commit and the tag's message, as GitLab 8.x sent it", () => {
    const payload = buildPayload(
      {
        kind: 'tag_push',
        projectId: 1,
        actorId: null,
        before: '0',
        after: 't',
        ref: 'refs/tags/v1',
        checkoutSha: 'c1',
        message: 'Release 1',
        commits: [commit],
        totalCommitsCount: 1,
      },
      { projects, actor: null },
    );
    expect(payload).toMatchObject({
      object_kind: 'tag_push',
      after: 't',
      checkout_sha: 'c1',
      message: 'Release 1',
      commits: [{ ...commit, url: 'http://hub.test/alice/app/commit/c1' }],
      total_commits_count: 1,
      user_name: null,
    });
  });

  it('merge request: source from the fork, target, last commit and the web URL', () => {
    const attributes = {
      id: 9,
      iid: 3,
      project_id: 1,
      target_project_id: 1,
      source_project_id: 2,
      target_branch: 'master',
      source_branch: 'f',
      title: 'm',
      description: '',
      state: 'opened' as const,
      author_id: 7,
      assignee_id: null,
      milestone_id: null,
      merge_status: 'unchecked',
      merge_commit_sha: null,
      work_in_progress: false,
      created_at: 't',
      updated_at: 't',
      last_commit: commit,
    };
    const event = { kind: 'merge_request' as const, projectId: 1, actorId: 7, action: 'open', attributes };
    expect(projectsNamedBy(event).sort()).toEqual([1, 2]);
    expect(buildPayload(event, { projects, actor: alice })).toMatchObject({
      object_kind: 'merge_request',
      user: { name: 'Alice Liddell', username: 'alice', avatar_url: 'http://avatar/alice' },
      object_attributes: {
        id: 9,
        source: {
          name: 'fork',
          http_url: 'http://hub.test/alice/fork.git',
          namespace: 'Alice Liddell',
          visibility_level: 10,
        },
        target: { name: 'app', web_url: 'http://hub.test/alice/app' },
        last_commit: { id: 'c1', url: 'http://hub.test/alice/fork/commit/c1' },
        url: 'http://hub.test/alice/app/merge_requests/3',
        action: 'open',
      },
    });
  });

  it('note: the note with its URL, and the noteable under its own key', () => {
    const payload = buildPayload(
      {
        kind: 'note',
        projectId: 1,
        actorId: 7,
        noteableType: 'Snippet',
        note: { id: 40, note: 'nice' },
        noteable: { id: 12, title: 's' },
      },
      { projects, actor: alice },
    );
    expect(payload).toMatchObject({
      object_kind: 'note',
      object_attributes: { id: 40, url: 'http://hub.test/alice/app/snippets/12#note_40' },
      snippet: { id: 12 },
    });
  });

  it('nothing for a project that no longer exists', () => {
    expect(
      buildPayload(
        { kind: 'issue', projectId: 99, actorId: 7, action: 'open', attributes: { iid: 1 } },
        { projects, actor: alice },
      ),
    ).toBeNull();
  });
});
