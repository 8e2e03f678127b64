import { createRedis, type Redis } from '@hub/common';
import { refundRequest } from '@hub/gateway';
import type { Request, Response } from 'express';
import { entityTag, matchesIfNoneMatch } from './entity-tags';
import { createScopeMemos, type ScopeContext, type ScopeMemos, type VersionScope } from './version-scopes';
import { createVersionReader, type VersionReader } from './versions';

/** What conditional GETs need: the versions events advance, and the replica's memos. */
export interface ConditionalRequests {
  versions: VersionReader;
  memos: ScopeMemos;
  close(): Promise<void>;
}

export function createConditionalRequests(redisUrl: string): ConditionalRequests {
  const redis: Redis = createRedis(redisUrl, { autoPipelining: true });
  redis.on('error', () => {}); // a read that fails answers in full; ioredis would print every reconnect
  return {
    versions: createVersionReader(redis),
    memos: createScopeMemos(),
    close: async () => redis.disconnect(),
  };
}

/**
 * Who asks, as a tag sees it: answers differ by permission, so no caller can use another's tag.
 * Only digested into the tag (entityTag), never shown.
 */
export const callerOf = (headers: Record<string, string>) =>
  `${headers['private-token'] ?? ''}\0${headers.authorization ?? ''}\0${headers.sudo ?? ''}`;

/**
 * The tag of a polled route's answer, made before the answer is: a change that lands while it is
 * being made advances a version the tag does not include yet, so the next request gets it in
 * full. Undefined when the scope cannot tell or fails (the answer then gets a tag of its body).
 */
export async function versionTag(
  scope: VersionScope,
  context: ScopeContext,
  caller: string,
  req: Request,
): Promise<string | undefined> {
  // A refusal is the route's to give: the scope's own lookup (a path's project) is skipped when
  // this replica remembers the path, so refusing here would make the answer depend on the memo.
  const keys = await scope(context).catch(() => null);
  const versions = keys && (await context.versions.read(keys));
  if (!keys || !versions) return undefined;
  return entityTag(caller, req.originalUrl, ...keys, ...versions);
}

/** The tag of an answer no version describes: its body, for this caller. */
export const bodyTag = (caller: string, body: string) => entityTag(caller, body);

export const isCurrent = (req: Request, tag: string) => matchesIfNoneMatch(req.header('if-none-match'), tag);

/** Every answer with a tag: cached by the client alone, and checked with it before reuse (GitLab's header). */
export function writeTagHeaders(res: Response, tag: string): void {
  res.setHeader('ETag', tag);
  res.setHeader('Cache-Control', 'max-age=0, private, must-revalidate');
  res.setHeader('Vary', 'Authorization, PRIVATE-TOKEN, Sudo');
}

/** 304: the caller's copy is current. No body, and no request counted against its rate limit. */
export function answerNotModified(res: Response, tag: string): void {
  refundRequest(res);
  writeTagHeaders(res, tag);
  res.status(304).end();
}
