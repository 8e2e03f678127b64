import { api, createUser, stack } from '../support/api';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('X-Request-Id', () => {
  it('echoes a safe id the client sends, on answers of every kind', async () => {
    const ok = await api('GET', '/user', { headers: { 'X-Request-Id': 'client-42.a_b' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('client-42.a_b');
    const missing = await api('GET', '/projects/999999999', { headers: { 'X-Request-Id': 'client-43' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-request-id')).toBe('client-43');
    const refused = await api('GET', '/user', { token: 'not-a-token', headers: { 'X-Request-Id': 'client-44' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-request-id')).toBe('client-44');
    const unrouted = await api('GET', '/no-such-route', { headers: { 'X-Request-Id': 'client-45' } });
    expect(unrouted.status).toBe(404);
    expect(unrouted.headers.get('x-request-id')).toBe('client-45');
  });

  it('makes one, different each time, when the client sends none or one that is not safe to echo', async () => {
    const seen = new Set<string>();
    for (const sent of [undefined, 'x'.repeat(65), 'two words', 'semi;colon', '%0d%0a']) {
      const answer = await api('GET', '/user', { headers: sent === undefined ? {} : { 'X-Request-Id': sent } });
      const id = answer.headers.get('x-request-id')!;
      expect(id).toMatch(UUID);
      seen.add(id);
    }
    expect(seen.size).toBe(5);
  });

  it('is answered by the gateway to GraphQL callers too', async () => {
    const user = await createUser();
    const response = await fetch(stack.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'PRIVATE-TOKEN': user.token, 'X-Request-Id': 'graphql-caller-1' },
      body: JSON.stringify({ query: '{ viewer { id } }' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('graphql-caller-1');
  });
});

describe('RateLimit headers', () => {
  it('say on every answer where the caller stands: limit, remaining and the seconds to the window’s end', async () => {
    const user = await createUser();
    const standings = [];
    for (let i = 0; i < 3; i++) {
      const answer = await api('GET', '/user', { token: user.token });
      expect(answer.status).toBe(200);
      standings.push({
        limit: Number(answer.headers.get('ratelimit-limit')),
        remaining: Number(answer.headers.get('ratelimit-remaining')),
        reset: Number(answer.headers.get('ratelimit-reset')),
      });
    }
    const limit = standings[0].limit;
    expect(limit).toBeGreaterThan(3);
    // A new user's budget: one request fewer each time.
    expect(standings.map((s) => s.remaining)).toEqual([limit - 1, limit - 2, limit - 3]);
    for (const s of standings) {
      expect(s.limit).toBe(limit);
      expect(s.reset).toBeGreaterThanOrEqual(1);
      expect(s.reset).toBeLessThanOrEqual(60);
    }
    // Without credentials the address's budget is reported, on errors too.
    const anonymous = await api('GET', '/user', { token: null });
    expect(anonymous.status).toBe(401);
    expect(Number(anonymous.headers.get('ratelimit-limit'))).toBeGreaterThan(0);
    expect(anonymous.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
  });
});
