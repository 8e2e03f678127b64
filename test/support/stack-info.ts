import { readFileSync } from 'node:fs';

/** What the global setup tells the test files about the running stack. */
export interface StackInfo {
  dir: string;
  restUrl: string;
  baseUrl: string;
  /** What clone and web URLs are built from. */
  externalUrl: string;
  graphqlUrl: string;
  urls: Record<string, string>;
  rootToken: string;
  rootPassword: string;
  databaseUrl: string;
  redisUrl: string;
  principalSecret: string;
  /** Debian's Chromium, which the browser tests drive (installed by the global setup when missing). */
  chromium: string;
  /** Every setting the stack's processes run with (to start one more of a kind from a test). */
  env: Record<string, string>;
}

export function stackInfo(): StackInfo {
  const file = process.env.HUB_E2E_STACK;
  if (!file) throw new Error('HUB_E2E_STACK is not set: run the e2e tests through jest (npm test)');
  return JSON.parse(readFileSync(file, 'utf8'));
}
