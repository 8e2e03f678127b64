/** GitLab v3's MergeRequest entity: users in the spec's full form, and no milestone (none exist yet). */
type Fields = Record<string, unknown>;

const user = (u: Fields | null) => (u ? { id: u.id, username: u.username, email: u.email, name: u.name, state: u.state, created_at: u.created_at, avatar_url: u.avatar_url } : null);

export const presentMergeRequest = (mr: Fields) => ({
  ...mr,
  author: user(mr.author as Fields),
  assignee: user(mr.assignee as Fields | null),
  milestone: null,
});
