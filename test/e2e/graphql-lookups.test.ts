import { api, createProject, createUser, graphql, unique, type TestProject, type TestUser } from '../support/api';
import { commitFiles, git, ok, remoteUrl, workingCopy } from '../support/git';

// Lookups by the names people use: a user by username, a group by path, an issue or a merge
// request by its project's path and its number there. A stranger asking about a private
// project's issue gets null, exactly as for one that does not exist.

describe('lookups by natural key in the public schema', () => {
  let owner: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let issue: { id: number; iid: number };
  let mergeRequest: { id: number; iid: number };
  beforeAll(async () => {
    [owner, stranger] = await Promise.all([createUser(), createUser()]);
    project = await createProject(owner.token);
    const clone = await workingCopy({ 'README.md': 'one\n' });
    const remote = remoteUrl(project.path_with_namespace, owner.username, owner.password);
    ok(await git(clone, 'push', '-q', remote, 'master'));
    ok(await git(clone, 'checkout', '-q', '-b', 'feature'));
    await commitFiles(clone, { 'feature.txt': 'feature\n' }, 'a feature');
    ok(await git(clone, 'push', '-q', remote, 'feature'));
    issue = (await api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'found' } }))
      .body;
    mergeRequest = (
      await api('POST', `/projects/${project.id}/merge_requests`, {
        token: owner.token,
        body: { source_branch: 'feature', target_branch: 'master', title: 'found too' },
      })
    ).body;
  });

  const ask = async (query: string, variables: Record<string, unknown>, token: string) => {
    const answer = await graphql(query, variables, { 'PRIVATE-TOKEN': token });
    expect(answer.body.errors).toBeUndefined();
    return answer.body.data;
  };

  it('finds a user by username, whatever its case, and answers null for none', async () => {
    const query = 'query ($username: String) { user(username: $username) { id username } }';
    expect(await ask(query, { username: owner.username.toUpperCase() }, stranger.token)).toEqual({
      user: { id: owner.id, username: owner.username },
    });
    expect(await ask(query, { username: unique('nobody') }, stranger.token)).toEqual({ user: null });
  });

  it('finds a group by its full path', async () => {
    const path = unique('grp');
    const group = await api('POST', '/groups', { token: owner.token, body: { name: path, path } });
    expect(group.status).toBe(201);
    expect(
      await ask('query ($p: String) { group(fullPath: $p) { id } }', { p: path.toUpperCase() }, owner.token),
    ).toEqual({
      group: { id: group.body.id },
    });
  });

  it('finds an issue and a merge request by project path and number, for those who may see the project', async () => {
    const query = `query ($path: String!, $issue: Int!, $mr: Int!) {
      issue(projectPath: $path, iid: $issue) { id iid title }
      mergeRequest(projectPath: $path, iid: $mr) { id iid title }
    }`;
    const variables = { path: project.path_with_namespace, issue: issue.iid, mr: mergeRequest.iid };
    expect(await ask(query, variables, owner.token)).toEqual({
      issue: { id: issue.id, iid: issue.iid, title: 'found' },
      mergeRequest: { id: mergeRequest.id, iid: mergeRequest.iid, title: 'found too' },
    });
    const none = { issue: null, mergeRequest: null };
    // A stranger and the private project; a number that names nothing; a path that names nothing.
    expect(await ask(query, variables, stranger.token)).toEqual(none);
    expect(await ask(query, { ...variables, issue: 9999, mr: 9999 }, owner.token)).toEqual(none);
    expect(await ask(query, { ...variables, path: `${owner.username}/${unique('none')}` }, stranger.token)).toEqual(
      none,
    );
  });
});
