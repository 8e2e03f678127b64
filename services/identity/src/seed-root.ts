import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { createLogger, createSql, loadConfig, migrate, type Sql } from '@hub/common';
import * as users from './db/users';
import { createTokenSealer } from './domain/token-seal';
import { digest } from './domain/tokens';
import { SERVICE } from './env';
import { createIdentityService } from './identity-service';

const ROOT = { username: 'root', email: 'admin@example.com', name: 'Administrator' };

/**
 * Ensures the admin `root` exists and prints `{"token": ..., "password": ...}` on stdout.
 * ROOT_TOKEN / ROOT_PASSWORD, when set, are applied on every run; otherwise a first run
 * generates them and later runs keep what is there (the password is then not printed).
 */
export async function seedRoot(sql: Sql, env: { token?: string; password?: string; tokenKey: string }) {
  if (env.token !== undefined && !/^[A-Za-z0-9_-]{20,64}$/.test(env.token)) {
    throw new Error('ROOT_TOKEN must be 20 to 64 characters of letters, digits, "_" or "-"');
  }
  if (env.password !== undefined && env.password.length < 8)
    throw new Error('ROOT_PASSWORD must be at least 8 characters');
  const sealer = createTokenSealer(env.tokenKey);
  await users.sealPlainTokens(sql, sealer.seal);
  const identity = createIdentityService({
    sql,
    logger: createLogger('seed', 'silent'),
    oauthTokenTtlSeconds: 0,
    sealer,
  });
  let password: string | null = env.password ?? null;
  let root = await users.findUserByUsername(sql, ROOT.username);
  if (!root) {
    password ??= randomBytes(12).toString('base64url');
    root = await identity.createUser({ ...ROOT, password, isAdmin: true });
  } else {
    // Keep root an active admin; a ROOT_PASSWORD given replaces the old password.
    if (!root.isAdmin || env.password)
      root = (await identity.updateUser(root.id, { isAdmin: true, password: env.password }))!;
    if (root.state !== 'active') root = (await identity.setState(root.id, 'active'))!;
  }
  if (env.token && digest(env.token) !== root.privateTokenDigest) await identity.resetPrivateToken(root.id, env.token);
  // A token sealed under a key since replaced cannot be shown: root gets a new one.
  const token = env.token ?? identity.privateTokenOf(root) ?? (await identity.resetPrivateToken(root.id));
  return { token, password };
}

async function run() {
  const config = loadConfig(['DATABASE_URL', 'TOKEN_ENCRYPTION_KEY'] as const, {
    optional: ['ROOT_TOKEN', 'ROOT_PASSWORD'] as const,
  });
  const sql = createSql({ url: config.DATABASE_URL, schema: SERVICE, max: 2 });
  try {
    await migrate({
      sql,
      schema: SERVICE,
      dir: resolve(__dirname, '..', 'migrations'),
      logger: createLogger('seed', 'warn'),
    });
    const result = await seedRoot(sql, {
      token: config.ROOT_TOKEN,
      password: config.ROOT_PASSWORD,
      tokenKey: config.TOKEN_ENCRYPTION_KEY,
    });
    process.stdout.write(JSON.stringify(result) + '\n');
  } finally {
    await sql.end();
  }
}

if (require.main === module) {
  run().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
