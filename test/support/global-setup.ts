import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureChromium, startStack, type Stack } from '@hub/local';
import { CONFIG_TABLE } from '@hub/common';
import type { StackInfo } from './stack-info';

/** A clean environment for the stack: nothing of the developer's own configuration leaks in. */
export function isolatedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(CONFIG_TABLE)) delete env[name];
  return { ...env, LOG_LEVEL: 'info', ...extra };
}

/** A temporary folder the unprivileged Postgres user can enter. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

export default async function globalSetup(): Promise<void> {
  // The explorer's test drives Debian's Chromium: installed when missing, as Postgres and Redis are.
  const chromium = await ensureChromium((line) => process.stderr.write(`e2e setup: ${line}\n`));
  const dir = tempDir('hub-e2e-');
  const stack = await startStack({
    dataDir: dir,
    // Long cache TTLs make the tests prove that events, not expiry, invalidate cached principals
    // and access answers.
    // Imports in the tests come from this same stack, on 127.0.0.1.
    // The suites send their bad tokens and passwords from one address, more than a person would in
    // the failed-authentication window; the request limits stay at their defaults. Every limit
    // has its own test on a facade replica of its own (rate-limits.test.ts).
    env: isolatedEnv({
      PRINCIPAL_CACHE_TTL_MS: '60000',
      ACCESS_CACHE_TTL_MS: '60000',
      IMPORT_ALLOW_LOCAL: 'true',
      AUTH_FAILURES_PER_IP: '0',
    }),
    freePorts: true,
    logs: { kind: 'files', dir },
    log: () => {},
  });
  (globalThis as { __hubStack?: Stack; __hubDir?: string }).__hubStack = stack;
  (globalThis as { __hubDir?: string }).__hubDir = dir;
  const info: StackInfo = {
    dir,
    restUrl: stack.restUrl,
    baseUrl: stack.restUrl.replace(/\/api\/v3$/, ''),
    graphqlUrl: stack.graphqlUrl,
    externalUrl: stack.env.EXTERNAL_URL!,
    urls: stack.urls,
    rootToken: stack.rootToken,
    rootPassword: stack.rootPassword!,
    databaseUrl: stack.env.DATABASE_URL!,
    redisUrl: stack.env.REDIS_URL!,
    principalSecret: stack.env.PRINCIPAL_SECRET!,
    chromium,
    env: Object.fromEntries(
      Object.keys(CONFIG_TABLE).flatMap((name) => (stack.env[name] ? [[name, stack.env[name]!]] : [])),
    ),
  };
  const file = join(dir, 'stack.json');
  writeFileSync(file, JSON.stringify(info));
  process.env.HUB_E2E_STACK = file;
}
