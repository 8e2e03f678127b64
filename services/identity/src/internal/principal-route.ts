import { PRINCIPAL_HEADER, verifyPrincipal } from '@hub/common';
import express, { type Router } from 'express';
import type { UserRow } from '../db/users';
import type { IdentityService } from '../identity-service';

/** The part of a user the gateway needs to build a principal. */
export interface PrincipalUser {
  id: number;
  username: string;
  isAdmin: boolean;
}

/** The body the gateway posts to /internal/principal. */
export interface PrincipalRequest {
  privateToken?: string;
  accessToken?: string;
  bearer?: string;
  /** HTTP basic: a login (username or email) with a password or the user's private token. */
  basic?: { login: string; secret: string };
  sudo?: string;
}

export interface PrincipalResponse {
  /** The active user behind the credentials; null when they match nobody. */
  user: PrincipalUser | null;
  /** Present when `sudo` was asked: the target, or null when no user has that id or username. */
  sudo?: PrincipalUser | null;
}

const summary = (user: UserRow | undefined): PrincipalUser | null =>
  user ? { id: user.id, username: user.username, isAdmin: user.isAdmin } : null;

const asString = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

const basicOf = (value: unknown) => {
  const { login, secret } = (value ?? {}) as Record<string, unknown>;
  return asString(login) && asString(secret) ? { login: login as string, secret: secret as string } : undefined;
};

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
      const body = (req.body ?? {}) as Record<string, unknown>;
      const sudo = asString(body.sudo);
      const [user, target] = await Promise.all([
        identity.userForCredentials({
          privateToken: asString(body.privateToken),
          accessToken: asString(body.accessToken),
          bearer: asString(body.bearer),
          basic: basicOf(body.basic),
        }),
        sudo === undefined ? undefined : identity.findSudoTarget(sudo),
      ]);
      const response: PrincipalResponse = { user: summary(user) };
      if (sudo !== undefined) response.sudo = summary(target);
      res.json(response);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
