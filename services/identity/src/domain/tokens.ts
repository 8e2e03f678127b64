import { createHash, randomBytes } from 'node:crypto';

/** 20 URL-safe characters, the length of GitLab's private tokens (some clients check it). */
export const newPrivateToken = () => randomBytes(15).toString('base64url');

/** OAuth tokens are longer (64 hex characters, as Doorkeeper's were). */
export const newOAuthToken = () => randomBytes(32).toString('hex');

export const digest = (token: string) => createHash('sha256').update(token).digest('hex');

export const gravatarUrl = (email: string) =>
  `https://secure.gravatar.com/avatar/${createHash('md5').update(email.trim().toLowerCase()).digest('hex')}?s=80&d=identicon`;
