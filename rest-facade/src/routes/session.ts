import { presentUserLogin } from '../entities/user';
import { CreateSessionDocument } from '../generated/operations';
import type { Route } from '../route';
import { UNAUTHORIZED } from '../v3-errors';

export const sessionRoutes: Route[] = [
  {
    // No token needed: this is how a client gets one. Missing credentials are a 401, as in GitLab.
    method: 'post',
    path: '/session',
    auth: false,
    handle: async (p, gateway) => {
      const password = p.string('password');
      const login = p.string('login');
      const email = p.string('email');
      if (!password || !(login || email)) throw UNAUTHORIZED();
      const { createSession } = await gateway(CreateSessionDocument, {
        login: login ?? null,
        email: email ?? null,
        password,
      });
      return { body: presentUserLogin({ ...createSession.user, private_token: createSession.private_token }) };
    },
  },
];
