import { api, createProject, createUser } from '../support/api';

// GitLab 7.14 routed DELETE /projects/:id/issues/:issue_id and answered not_allowed! (deleting
// issues was deprecated), before looking at the project or the issue.
describe('DELETE /projects/:id/issues/:issue_id', () => {
  it('answers 405 Method Not Allowed and deletes nothing', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const issue = (
      await api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Stays' } })
    ).body;
    for (const path of [
      `/projects/${project.id}/issues/${issue.id}`,
      `/projects/${project.id}/issues/999999`,
      '/projects/999999/issues/1',
    ]) {
      expect(await api('DELETE', path, { token: owner.token })).toMatchObject({
        status: 405,
        body: { message: '405 Method Not Allowed' },
      });
    }
    expect((await api('GET', `/projects/${project.id}/issues/${issue.id}`, { token: owner.token })).body.title).toBe(
      'Stays',
    );
    expect((await api('DELETE', `/projects/${project.id}/issues/${issue.id}`, { token: null })).status).toBe(401);
  });
});
