import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Private tokens are stored twice, neither time as they are: a SHA-256 digest that requests are
 * matched against, and a copy sealed with AES-256-GCM under TOKEN_ENCRYPTION_KEY.
 *
 * Why a recoverable copy at all: GitLab 7 hands the private token back to its owner on every
 * `GET /user` and `POST /session` (the `UserLogin` entity), and v3 clients sign in that way to
 * learn their token; a digest alone could only show it once, at creation. Why sealed: a copy of
 * the database (a backup, a replica, a stolen dump) then yields no token without the key, which
 * lives in the process's settings, not in the database. OAuth tokens are shown once, at issue,
 * so they are kept as digests only.
 */
export interface TokenSealer {
  seal(token: string): string;
  /** The token, or null when the copy was sealed under another key (then a reset issues a new one). */
  open(sealed: string): string | null;
}

const VERSION = 'v1';

export function createTokenSealer(secret: string): TokenSealer {
  if (secret.length < 32) throw new Error('TOKEN_ENCRYPTION_KEY must be at least 32 characters');
  // Any length of secret becomes one 256-bit key; the label keeps it apart from other uses.
  const key = createHash('sha256').update(`hub private-token seal\0${secret}`).digest();
  return {
    seal(token) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
      return [
        VERSION,
        iv.toString('base64url'),
        sealed.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
      ].join('.');
    },
    open(sealed) {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== VERSION || !iv || !body || !tag) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}
