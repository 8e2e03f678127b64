import { api, createUser, stack } from '../support/api';

describe('sudo', () => {
  it('lets an admin act as a user named by username (SUDO header) or id (sudo parameter)', async () => {
    const user = await createUser();
    const byHeader = await api('GET', '/user', { headers: { SUDO: user.username } });
    expect(byHeader.status).toBe(200);
    expect(byHeader.body).toMatchObject({ id: user.id, username: user.username, is_admin: false });
    const byParam = await api('GET', '/user', { query: { sudo: user.id } });
    expect(byParam.body.id).toBe(user.id);
    const inJsonBody = await api('GET', '/user', { body: { sudo: String(user.id) } });
    expect(inJsonBody.body.id).toBe(user.id);
  });

  it('acts with the target’s rights, not the admin’s', async () => {
    const user = await createUser();
    const res = await api('POST', '/users', {
      headers: { SUDO: user.username },
      body: { email: 'x@example.com', password: 'password1', username: 'sudo-made', name: 'x' },
    });
    expect(res.status).toBe(403);
  });

  it('answers 403 when a non-admin uses sudo', async () => {
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const res = await api('GET', '/user', { token: user.token, headers: { SUDO: other.username } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden: Must be admin to use sudo' });
  });

  it('answers 404 naming the value when no user has that id or username', async () => {
    const byName = await api('GET', '/user', { headers: { SUDO: 'no-such-user-anywhere' } });
    expect(byName.status).toBe(404);
    expect(byName.body).toEqual({ message: '404 Not Found: No user id or username for: no-such-user-anywhere' });
    const byId = await api('GET', '/user', { query: { sudo: 99999999 } });
    expect(byId.status).toBe(404);
    expect(byId.body).toEqual({ message: '404 Not Found: No user id or username for: 99999999' });
  });

  it('sudo to oneself is a no-op, even for non-admins', async () => {
    const user = await createUser();
    const res = await api('GET', '/user', { token: user.token, headers: { SUDO: user.username } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(user.id);
  });

  it('works with an OAuth bearer token too', async () => {
    const user = await createUser();
    const issued = await api('POST', 'root:/oauth/token', {
      token: null,
      body: { grant_type: 'password', username: 'root', password: stack.rootPassword },
    });
    const res = await api('GET', '/user', {
      token: null,
      headers: { Authorization: `Bearer ${issued.body.access_token}`, SUDO: user.username },
    });
    expect(res.body.id).toBe(user.id);
  });
});
