import { existsSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import type { Sql } from '@hub/common';
import { installHooks } from '../http/hooks';
import { createGitHttpHandler } from '../http/git-http';
import { call, failureKind, startHarness } from '../testing/harness';

/**
 * Two shards: `a` holds the sources and serves its git HTTP; `b` forks and merges from them. Only
 * reads cross (upload-pack), so `a`'s handler needs no database.
 */
let a: Awaited<ReturnType<typeof startHarness>>;
let b: Awaited<ReturnType<typeof startHarness>>;
let aHttp: import('node:http').Server;
let aUrl: string;
beforeAll(async () => {
  a = await startHarness();
  b = await startHarness();
  const app = express();
  // `b` signs its reads with its secret: the shards share one in a deployment.
  app.use(
    createGitHttpHandler({
      ...a.deps,
      secret: b.deps.callers.secret,
      hooksDir: installHooks(join(a.root, '.hooks')),
      sql: {} as Sql,
    }),
  );
  aHttp = app.listen(0, '127.0.0.1');
  await new Promise((done) => aHttp.once('listening', done));
  aUrl = `http://127.0.0.1:${(aHttp.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((done) => aHttp.close(done));
  await a.stop();
  await b.stop();
});

describe('a source on another shard', () => {
  it("ForkRepository copies it over the source shard's git HTTP: own objects, no alternates, branches and tags", async () => {
    const source = await a.repo([{ files: { 'a.txt': 'a' } }, { files: { 'b.txt': 'b' }, branch: 'feature' }]);
    source.git('tag', 'v1');
    source.git('push', '--quiet', 'origin', 'v1');
    await call(b.repository, 'ForkRepository', {
      repository: { projectId: 700 },
      source: { ...source.repository, remoteUrl: aUrl },
    });
    const fork = join(b.root, '700.git');
    expect(existsSync(join(fork, 'objects', 'info', 'alternates'))).toBe(false);
    const { branches } = await call(b.ref, 'ListBranches', { repository: { projectId: 700 } });
    expect(branches.map((x: { name: string }) => x.name).sort()).toEqual(['feature', 'master']);
    const { tags } = await call(b.ref, 'ListTags', { repository: { projectId: 700 } });
    expect(tags.map((x: { name: string }) => x.name)).toEqual(['v1']);
    // The copy holds every object itself: deleting the source on its shard changes nothing.
    await call(a.repository, 'DeleteRepository', { repository: source.repository });
    const blob = await call(b.blob, 'GetTreeEntries', { repository: { projectId: 700 }, ref: 'feature', path: '' });
    expect(blob.entries.map((e: { name: string }) => e.name).sort()).toEqual(['a.txt', 'b.txt']);
    expect((await call(b.repository, 'RepositoryInfo', { repository: { projectId: 700 } })).defaultBranch).toBe(
      'master',
    );
  });

  it('ForkRepository from a shard that refuses (wrong secret) is a plain failure (to be retried) and leaves nothing', async () => {
    const other = await startHarness();
    try {
      const source = await a.repo([{ files: { 'a.txt': 'a' } }]);
      const kind = await failureKind(
        call(other.repository, 'ForkRepository', {
          repository: { projectId: 701 },
          source: { ...source.repository, remoteUrl: aUrl },
        }),
      );
      // A refusal is a misconfiguration (the shards' secrets differ), not a source without a repository.
      expect(kind).not.toBe('REPOSITORY_NOT_FOUND');
      expect(kind).not.toBe('ok');
      expect(existsSync(join(other.root, '701.git'))).toBe(false);
    } finally {
      await other.stop();
    }
  });

  it('ForkRepository from a source with no repository on its shard: not found, and nothing made on either shard', async () => {
    const kind = await failureKind(
      call(b.repository, 'ForkRepository', {
        repository: { projectId: 703 },
        source: { projectId: 704, remoteUrl: aUrl },
      }),
    );
    expect(kind).toBe('REPOSITORY_NOT_FOUND');
    // The read across shards never makes the source it asks for (an orphan there, an empty fork here).
    expect(existsSync(join(a.root, '704.git'))).toBe(false);
    expect(existsSync(join(b.root, '703.git'))).toBe(false);
  });

  it('ForkRepository from a shard out of reach is a plain failure (to be retried), not a missing source', async () => {
    const source = await a.repo([{ files: { 'a.txt': 'a' } }]);
    const kind = await failureKind(
      call(b.repository, 'ForkRepository', {
        repository: { projectId: 702 },
        source: { ...source.repository, remoteUrl: 'http://127.0.0.1:1' },
      }),
    );
    expect(kind).not.toBe('REPOSITORY_NOT_FOUND');
    expect(kind).not.toBe('ok');
    expect(existsSync(join(b.root, '702.git'))).toBe(false);
  });

  it('a merge request from a fork on another shard: diffs and mergeability fetch its branch from there', async () => {
    const target = await b.repo([{ files: { 'a.txt': 'a' } }]);
    const fork = await a.repo([{ files: { 'a.txt': 'a' } }]);
    // The fork shares the target's history, then adds a commit on its own shard.
    fork.git('fetch', '--quiet', target.bare, 'master');
    fork.git('reset', '--quiet', '--hard', 'FETCH_HEAD');
    fork.git('checkout', '--quiet', '-b', 'topic');
    writeFileSync(join(fork.work, 'c.txt'), 'c');
    fork.git('add', 'c.txt');
    fork.git('commit', '--quiet', '-m', 'topic work');
    fork.git('push', '--quiet', '--force', 'origin', 'topic');
    const sourceRepository = { ...fork.repository, remoteUrl: aUrl };
    const request = { repository: target.repository, source: 'topic', target: 'master', sourceRepository };
    const diffs = await call(b.merge, 'MergeRequestDiffs', request);
    expect(diffs.diffs.map((d: { newPath: string }) => d.newPath)).toEqual(['c.txt']);
    expect((await call(b.merge, 'CheckMergeability', request)).mergeable).toBe(true);
  });
});
