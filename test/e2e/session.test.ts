import { api, createUser, stack } from '../support/api';

describe('POST /session', () => {
  it.each([
    ['login', (u: { username: string }) => ({ login: u.username })],
    ['login in another case', (u: { username: string }) => ({ login: u.username.toUpperCase() })],
    ['email', (u: { email: string }) => ({ email: u.email })],
    ['email in another case', (u: { email: string }) => ({ email: u.email.toUpperCase() })],
    ['email given as login', (u: { email: string }) => ({ login: u.email })],
  ])('signs in with %s and returns the user with private_token (201)', async (_label, credentials) => {
    const user = await createUser();
    const res = await api('POST', '/session', { token: null, body: { ...credentials(user), password: user.password } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: user.id,
      username: user.username,
      email: user.email,
      private_token: user.token,
      is_admin: false,
    });
    expect(res.body.current_sign_in_at).toEqual(expect.any(String));
    expect(res.body.projects_limit).toEqual(expect.any(Number));
  });

  it('accepts a form body', async () => {
    const user = await createUser();
    const res = await api('POST', '/session', {
      token: null,
      body: new URLSearchParams({ login: user.username, password: user.password }),
    });
    expect(res.status).toBe(201);
    expect(res.body.private_token).toBe(user.token);
  });

  it.each([
    ['a wrong password', (u: { username: string }) => ({ login: u.username, password: 'wrong-password' })],
    ['an unknown login', () => ({ login: 'nobody-like-this', password: 'whatever-pass' })],
    ['no password', (u: { username: string }) => ({ login: u.username })],
    ['no login', (u: { password: string }) => ({ password: u.password })],
  ])('answers 401 for %s', async (_label, body) => {
    const user = await createUser();
    const res = await api('POST', '/session', { token: null, body: body(user) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });

  it('root signs in with the seeded password', async () => {
    const res = await api('POST', '/session', { token: null, body: { login: 'root', password: stack.rootPassword } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: 'root', is_admin: true, private_token: stack.rootToken });
  });
});
