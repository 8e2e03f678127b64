import { principalLookup, PRINCIPAL_HEADER, verifyPrincipal, type ResponseOf } from '@hub/common';
import express, { type Router } from 'express';
import type { UserRow } from '../db/users';
import type { IdentityService } from '../identity-service';

type PrincipalUser = NonNullable<ResponseOf<typeof principalLookup>['user']>;

const summary = (user: UserRow | undefined): PrincipalUser | null =>
  user ? { id: user.id, username: user.username, isAdmin: user.isAdmin } : null;

/** Empty strings present nothing. */
const given = (value: string | undefined) => (value === '' ? undefined : value);

/**
 * Credentials → user, for the gateway only (it signs as the system principal). Kept off the
 * public graph: internal teams must not be able to probe tokens through /graphql. The sudo
 * target is looked up in the same round trip; the gateway applies the sudo rules.
 */
export function createPrincipalRouter(identity: IdentityService, principalSecret: string): Router {
  const router = express.Router();
  router.post('/internal/principal', express.json({ limit: '16kb' }), async (req, res, next) => {
    const caller = verifyPrincipal(req.header(PRINCIPAL_HEADER), principalSecret);
    if (caller?.system !== 'gateway') {
      res.status(401).json({ message: '401 Unauthorized' });
      return;
    }
    try {
      // Credentials of the wrong shape match nobody (401 at the gateway), never a failure.
      const body = principalLookup.request.safeParse(req.body ?? {}).data ?? {};
      const sudo = given(body.sudo);
      const basic = body.basic && given(body.basic.login) && given(body.basic.secret) ? body.basic : undefined;
      const [user, target] = await Promise.all([
        identity.userForCredentials({
          privateToken: given(body.privateToken),
          accessToken: given(body.accessToken),
          bearer: given(body.bearer),
          basic,
        }),
        sudo === undefined ? undefined : identity.findSudoTarget(sudo),
      ]);
      const response: ResponseOf<typeof principalLookup> = { user: summary(user) };
      if (sudo !== undefined) response.sudo = summary(target);
      res.json(response);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
