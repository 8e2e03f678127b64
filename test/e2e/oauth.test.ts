import { api, createUser } from '../support/api';

const token = (body: Record<string, string>) =>
  api('POST', 'root:/oauth/token', { token: null, body: new URLSearchParams(body) });

describe('POST /oauth/token (password grant, at the server root)', () => {
  it('issues a bearer token that works as Authorization: Bearer and as access_token', async () => {
    const user = await createUser();
    const res = await token({ grant_type: 'password', username: user.username, password: user.password });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      token_type: 'bearer',
      expires_in: expect.any(Number),
      scope: 'api',
      created_at: expect.any(Number),
    });
    expect(res.body.access_token).toMatch(/^[0-9a-f]{64}$/);
    const viaHeader = await api('GET', '/user', {
      token: null,
      headers: { Authorization: `Bearer ${res.body.access_token}` },
    });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body.id).toBe(user.id);
    const viaParam = await api('GET', '/user', { token: null, query: { access_token: res.body.access_token } });
    expect(viaParam.status).toBe(200);
    expect(viaParam.body.id).toBe(user.id);
  });

  it('accepts a JSON body and an email as username', async () => {
    const user = await createUser();
    const res = await api('POST', 'root:/oauth/token', {
      token: null,
      body: { grant_type: 'password', username: user.email, password: user.password },
    });
    expect(res.status).toBe(200);
    expect(res.body.access_token).toEqual(expect.any(String));
  });

  it('refuses wrong credentials with invalid_grant (401) and unknown grant types with 400', async () => {
    const user = await createUser();
    const wrong = await token({ grant_type: 'password', username: user.username, password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: 'invalid_grant', error_description: expect.any(String) });
    const unsupported = await token({ grant_type: 'client_credentials' });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.error).toBe('unsupported_grant_type');
    const missing = await token({ grant_type: 'password', username: user.username });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
  });

  it('rotates tokens with the refresh_token grant; a refresh token works once', async () => {
    const user = await createUser();
    const first = await token({ grant_type: 'password', username: user.username, password: user.password });
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    expect(second.status).toBe(200);
    expect(second.body.access_token).not.toBe(first.body.access_token);
    expect((await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token })).status).toBe(401);
    const viaNew = await api('GET', '/user', {
      token: null,
      headers: { Authorization: `Bearer ${second.body.access_token}` },
    });
    expect(viaNew.body.id).toBe(user.id);
  });

  it('an unknown bearer token is a 401', async () => {
    const res = await api('GET', '/user', { token: null, headers: { Authorization: 'Bearer ' + 'f'.repeat(64) } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });
});
