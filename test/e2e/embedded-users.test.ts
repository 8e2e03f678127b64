import { api, createProject, createUser, stack, type TestProject, type TestUser } from '../support/api';

// GitLab 7.14 embedded users as UserBasic (name, username, id, state, avatar_url, web_url); ours are
// the spec's full form, which with these two is a superset of it.
let owner: TestUser;
let project: TestProject;

beforeAll(async () => {
  owner = await createUser();
  project = await createProject(owner.token, { snippets_enabled: true });
});

const userBasic = (user: TestUser) =>
  expect.objectContaining({
    id: user.id,
    username: user.username,
    state: 'active',
    avatar_url: expect.any(String),
    web_url: `${stack.externalUrl}/u/${user.username}`,
  });

describe("embedded users carry UserBasic's avatar_url and web_url", () => {
  it('on issues (author, assignee) and their notes', async () => {
    const issue = await api('POST', `/projects/${project.id}/issues`, {
      token: owner.token,
      body: { title: 'Who', assignee_id: owner.id },
    });
    expect(issue.body).toMatchObject({ author: userBasic(owner), assignee: userBasic(owner) });
    const note = await api('POST', `/projects/${project.id}/issues/${issue.body.id}/notes`, {
      token: owner.token,
      body: { body: 'Me' },
    });
    expect(note.body.author).toEqual(userBasic(owner));
  });

  it('on snippets', async () => {
    const snippet = await api('POST', `/projects/${project.id}/snippets`, {
      token: owner.token,
      body: { title: 't', file_name: 'f', code: 'c', visibility_level: 0 },
    });
    expect(snippet.body.author).toEqual(userBasic(owner));
  });
});
