import { CreateOAuthTokenDocument } from '../generated/operations';
import { payloadEntity } from '../gateway-client';
import { objectOf } from '../openapi/json-schema';
import { str } from '../param-docs';
import type { Route } from '../route';
import { V3Error } from '../v3-errors';

/**
 * POST /oauth/token at the server root, as GitLab (Doorkeeper) served it. Success is a 200 with
 * the RFC 6749 token body; errors use OAuth's `{error, error_description}` body, not v3's.
 */
export const oauthTokenRoute: Route = {
  method: 'post',
  path: '/oauth/token',
  auth: false,
  summary: "OAuth 2 token endpoint: the password and refresh_token grants (RFC 6749); errors in OAuth's shape",
  status: 200,
  params: {
    grant_type: str('password or refresh_token.'),
    username: str('For the password grant: a username or email.'),
    password: str('For the password grant.'),
    refresh_token: str('For the refresh_token grant.'),
  },
  response: (g) => g.select(CreateOAuthTokenDocument, 'createOAuthToken.oauthToken'),
  errorShape: objectOf({ error: { type: 'string' }, error_description: { type: 'string' } }),
  handle: async (p, gateway) => {
    try {
      const { createOAuthToken } = await gateway(CreateOAuthTokenDocument, {
        input: {
          grantType: p.string('grant_type') ?? '',
          username: p.string('username') ?? null,
          password: p.string('password') ?? null,
          refreshToken: p.string('refresh_token') ?? null,
        },
      });
      return { body: payloadEntity(createOAuthToken.oauthToken) };
    } catch (error) {
      const oauthError = error instanceof V3Error ? error.extensions.oauthError : undefined;
      if (typeof oauthError === 'string') {
        throw new V3Error(error instanceof V3Error ? error.status : 400, {
          error: oauthError,
          error_description: (error as V3Error).message,
        });
      }
      throw error;
    }
  },
};
