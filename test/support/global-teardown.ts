import { rmSync } from 'node:fs';
import type { Stack } from '@hub/local';

export default async function globalTeardown(): Promise<void> {
  const state = globalThis as { __hubStack?: Stack; __hubDir?: string };
  await state.__hubStack?.stop();
  // KEEP_E2E_DATA=1 keeps the folder (process logs, Postgres log) for a look after a failure.
  if (state.__hubDir && !process.env.KEEP_E2E_DATA) rmSync(state.__hubDir, { recursive: true, force: true });
}
