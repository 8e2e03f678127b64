import { createHash, randomBytes, scrypt } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLogger, migrate, type Sql } from '@hub/common';
import { createTestSchema } from '@hub/common/testing';
import { sealPlainTokens } from './db/users';
import { createTokenSealer } from './domain/token-seal';
import { createIdentityService } from './identity-service';

const MIGRATIONS = resolve(__dirname, '..', 'migrations');
const silent = createLogger('test', 'silent');
const sealer = createTokenSealer('test-key-'.repeat(5));
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('private tokens at rest', () => {
  let sql: Sql;
  let drop: () => Promise<void>;
  let schema: string;

  beforeAll(async () => {
    // A database as identity left it before tokens were hashed: migrations up to 0004 only.
    const before = mkdtempSync(join(tmpdir(), 'identity-migrations-'));
    cpSync(MIGRATIONS, before, { recursive: true, filter: (path) => !/000[5-9]_|00[1-9]\d_/.test(path) });
    ({ sql, drop } = await createTestSchema('identity', before));
    rmSync(before, { recursive: true, force: true });
    [{ schema }] = await sql<{ schema: string }[]>`select current_schema() as schema`;
    await sql`insert into users (username, email, name, password_hash, private_token)
      values ('legacy', 'legacy@example.com', 'Legacy', 'scrypt$16384$8$1$c2FsdA==$a2V5', 'legacyToken123456789')`;
  });
  afterAll(() => drop());

  it('hashes and seals the tokens an older database kept in plain text', async () => {
    await migrate({ sql, schema, dir: MIGRATIONS, logger: silent });
    expect(await sealPlainTokens(sql, sealer.seal)).toBe(1);
    const [row] =
      await sql`select private_token, private_token_digest, private_token_sealed from users where username = 'legacy'`;
    expect(row.privateToken).toBeNull();
    expect(row.privateTokenDigest).toBe(sha256('legacyToken123456789'));
    expect(sealer.open(row.privateTokenSealed)).toBe('legacyToken123456789');
    expect(await sealPlainTokens(sql, sealer.seal)).toBe(0);

    const identity = createIdentityService({ sql, logger: silent, oauthTokenTtlSeconds: 60, sealer });
    const user = await identity.userForCredentials({ privateToken: 'legacyToken123456789' });
    expect(user?.username).toBe('legacy');
    expect(identity.privateTokenOf(user!)).toBe('legacyToken123456789');
    expect(await identity.userForCredentials({ privateToken: 'legacyToken12345678X' })).toBeUndefined();
  });

  it('moves the digest to a token an older replica reset in plain text during a rolling update', async () => {
    // The older release resets by writing the plain column alone; the digest still names the old token.
    await sql`update users set private_token = 'resetByOldPod12345678' where username = 'legacy'`;
    expect(await sealPlainTokens(sql, sealer.seal)).toBe(1);
    const [row] =
      await sql`select private_token, private_token_digest, private_token_sealed from users where username = 'legacy'`;
    expect(row.privateToken).toBeNull();
    expect(row.privateTokenDigest).toBe(sha256('resetByOldPod12345678'));
    expect(sealer.open(row.privateTokenSealed)).toBe('resetByOldPod12345678');

    const identity = createIdentityService({ sql, logger: silent, oauthTokenTtlSeconds: 60, sealer });
    expect((await identity.userForCredentials({ privateToken: 'resetByOldPod12345678' }))?.username).toBe('legacy');
    expect(await identity.userForCredentials({ privateToken: 'legacyToken123456789' })).toBeUndefined();
  });

  it('stores a new user’s token and password nowhere as they are, and finds the user by either', async () => {
    const identity = createIdentityService({ sql, logger: silent, oauthTokenTtlSeconds: 60, sealer });
    const created = await identity.createUser({
      username: 'fresh',
      email: 'fresh@example.com',
      name: 'Fresh',
      password: 'secret-password-1',
    });
    const token = identity.privateTokenOf(created)!;
    expect(token).toHaveLength(20);
    const [row] = await sql`select * from users where id = ${created.id}`;
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain('secret-password-1');
    expect((await identity.userForCredentials({ privateToken: token }))?.id).toBe(created.id);
    expect((await identity.userForCredentials({ bearer: token }))?.id).toBe(created.id);
    expect((await identity.userForCredentials({ basic: { login: 'fresh', secret: token } }))?.id).toBe(created.id);
    expect((await identity.userForCredentials({ basic: { login: 'fresh', secret: 'secret-password-1' } }))?.id).toBe(
      created.id,
    );

    // OAuth tokens are kept as digests only.
    const issued = await identity.issueOAuthToken({
      grantType: 'password',
      username: 'fresh',
      password: 'secret-password-1',
    });
    const tokens = JSON.stringify(await sql`select * from oauth_access_tokens where user_id = ${created.id}`);
    expect(tokens).not.toContain(issued.accessToken);
    expect(tokens).not.toContain(issued.refreshToken);
    expect((await identity.userForCredentials({ bearer: issued.accessToken }))?.id).toBe(created.id);

    const reset = await identity.resetPrivateToken(created.id);
    expect(await identity.userForCredentials({ privateToken: token })).toBeUndefined();
    expect((await identity.userForCredentials({ privateToken: reset }))?.id).toBe(created.id);
  });

  it('rehashes a password hashed with weaker parameters at sign-in', async () => {
    const identity = createIdentityService({ sql, logger: silent, oauthTokenTtlSeconds: 60, sealer });
    const created = await identity.createUser({
      username: 'weak',
      email: 'weak@example.com',
      name: 'Weak',
      password: 'weak-password-1',
    });
    // The same scheme at a quarter of today's cost, as an older release might have stored it.
    const salt = randomBytes(16);
    const key = await new Promise<Buffer>((done, fail) =>
      scrypt('weak-password-1', salt, 32, { N: 4096, r: 8, p: 1 }, (e, k) => (e ? fail(e) : done(k))),
    );
    const weakHash = ['scrypt', 4096, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    await sql`update users set password_hash = ${weakHash} where id = ${created.id}`;
    await identity.signIn('weak', 'weak-password-1');
    const [row] = await sql`select password_hash from users where id = ${created.id}`;
    expect(row.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$/);
    await expect(identity.signIn('weak', 'weak-password-1')).resolves.toMatchObject({ id: created.id });
  });
});
