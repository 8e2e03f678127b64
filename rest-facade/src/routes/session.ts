import { presentUserLogin, userLoginSchema } from '../entities/user';
import { withProperties, propertyOf } from '../openapi/json-schema';
import { str } from '../param-docs';
import { CreateSessionDocument } from '../generated/operations';
import { payloadEntity } from '../gateway-client';
import type { Route } from '../route';
import { UNAUTHORIZED } from '../v3-errors';

export const sessionRoutes: Route[] = [
  {
    // No token needed: this is how a client gets one. Missing credentials are a 401, as in GitLab.
    method: 'post',
    path: '/session',
    auth: false,
    summary: 'Signs in with a login or email and a password: the account with its private token',
    params: {
      login: str('A username or email.'),
      email: str(),
      password: str(),
    },
    response: (g) =>
      userLoginSchema(
        withProperties(g.select(CreateSessionDocument, 'createSession.session.user'), {
          private_token: propertyOf(g.select(CreateSessionDocument, 'createSession.session'), 'private_token'),
        }),
      ),
    handle: async (p, gateway) => {
      const password = p.string('password');
      const login = p.string('login');
      const email = p.string('email');
      if (!password || !(login || email)) throw UNAUTHORIZED();
      const { createSession } = await gateway(CreateSessionDocument, {
        input: { login: login ?? null, email: email ?? null, password },
      });
      const session = payloadEntity(createSession.session);
      return { body: presentUserLogin({ ...session.user, private_token: session.private_token }) };
    },
  },
];
