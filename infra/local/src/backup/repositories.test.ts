// Repository bundles, full and incremental, and the manifest's checks, on real git repositories.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Of } from './files';
import { placeRepositories } from './index';
import { locateBackup, verifyFiles, writeManifest, type Manifest } from './manifest';
import { backupRepository, repositoriesOn, restoreRepository, type RepositoryEntry } from './repositories';

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: dir,
    encoding: 'utf8',
  }).trim();

describe('repository bundles', () => {
  let work: string;
  let shard: string;
  let set: string;
  let clone: string;
  const repo = () => join(shard, '7.git');
  const commit = (message: string) => {
    writeFileSync(join(clone, 'file.txt'), `${message}\n`);
    git(clone, 'add', '.');
    git(clone, 'commit', '-q', '-m', message);
    return git(clone, 'rev-parse', 'HEAD');
  };
  const refsOf = (dir: string) => git(dir, 'for-each-ref', '--format=%(objectname) %(refname)');

  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'hub-backup-unit-'));
    shard = join(work, 'shard');
    set = join(work, 'set');
    mkdirSync(shard);
    git(shard, 'init', '-q', '--bare', '--initial-branch=main', '7.git');
    // Half made by the worker (built beside, then renamed): not a repository yet.
    mkdirSync(join(shard, '8.git.building'));
    clone = join(work, 'clone');
    git(work, 'clone', '-q', repo(), clone);
    git(clone, 'checkout', '-q', '-b', 'main');
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it('lists the repositories of a shard by project id, leaving half-made ones out', () => {
    expect(repositoriesOn(shard)).toEqual([7]);
    expect(repositoriesOn(join(work, 'none'))).toEqual([]);
  });

  it('backs an empty repository up as its HEAD alone', async () => {
    const entry = await backupRepository({
      repo: repo(),
      projectId: 7,
      shard: 'default',
      setRoot: set,
      path: 'a/7.bundle',
    });
    expect(entry).toEqual({ projectId: 7, shard: 'default', head: 'refs/heads/main', refs: {}, bundles: [] });
    await restoreRepository(entry, set, join(work, 'restored.git'));
    expect(refsOf(join(work, 'restored.git'))).toBe('');
    expect(git(join(work, 'restored.git'), 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
  });

  it('bundles everything first, then only what is new, and restores the same refs and objects', async () => {
    const first = commit('one');
    git(clone, 'push', '-q', 'origin', 'main', `${first}:refs/heads/old`);
    git(clone, 'tag', '-a', 'v1', '-m', 'one');
    git(clone, 'push', '-q', 'origin', 'v1');
    const full = await backupRepository({
      repo: repo(),
      projectId: 7,
      shard: 'default',
      setRoot: set,
      path: 'a/7.bundle',
    });
    expect(full.bundles.map((b) => b.path)).toEqual(['a/7.bundle']);

    // Unchanged: no new bundle, the earlier ones still hold everything.
    const same = await backupRepository({
      repo: repo(),
      projectId: 7,
      shard: 'default',
      setRoot: set,
      path: 'b/7.bundle',
      previous: full,
    });
    expect(same.bundles).toEqual(full.bundles);

    const second = commit('two');
    git(clone, 'push', '-q', 'origin', 'main', ':refs/heads/old');
    git(clone, 'push', '-q', 'origin', `${first}:refs/heads/at-first`);
    const next = await backupRepository({
      repo: repo(),
      projectId: 7,
      shard: 'default',
      setRoot: set,
      path: 'c/7.bundle',
      previous: same,
    });
    expect(next.bundles.map((b) => b.path)).toEqual(['a/7.bundle', 'c/7.bundle']);
    expect(next.bundles[1].bytes).toBeLessThan(full.bundles[0].bytes);
    expect(next.refs['refs/heads/main']).toBe(second);
    expect(next.refs['refs/heads/at-first']).toBe(first);
    expect(next.refs['refs/heads/old']).toBeUndefined();

    const restored = join(work, 'restored.git');
    await restoreRepository(next, set, restored);
    expect(refsOf(restored)).toBe(refsOf(repo()));
    expect(git(restored, 'rev-list', '--objects', '--all').split('\n').sort()).toEqual(
      git(repo(), 'rev-list', '--objects', '--all').split('\n').sort(),
    );
  });

  it('refuses a chain missing a bundle, leaving no repository behind', async () => {
    commit('one');
    git(clone, 'push', '-q', 'origin', 'main');
    const full = await backupRepository({
      repo: repo(),
      projectId: 7,
      shard: 'default',
      setRoot: set,
      path: 'a/7.bundle',
    });
    commit('two');
    git(clone, 'push', '-q', 'origin', 'main');
    const next = await backupRepository({
      repo: repo(),
      projectId: 7,
      shard: 'default',
      setRoot: set,
      path: 'b/7.bundle',
      previous: full,
    });
    const restored = join(work, 'restored.git');
    await expect(restoreRepository({ ...next, bundles: next.bundles.slice(1) }, set, restored)).rejects.toThrow(
      /repository of project 7/,
    );
    expect(repositoriesOn(work)).toEqual([]);
  });
});

describe('the manifest', () => {
  let set: string;
  const manifest = (over: Partial<Manifest> = {}): Manifest => ({
    format: 1,
    id: '20260101T000000Z',
    previous: null,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
    versions: { postgresServer: '15', pgDump: '15', git: '2', node: 'v20' },
    database: {
      path: '20260101T000000Z/database.dump',
      bytes: 4,
      sha256: '',
      schemas: {},
      events: { streams: {}, outbox: {}, pendingDeliveries: 0 },
    },
    shards: ['default'],
    repositories: [],
    ...over,
  });

  beforeEach(() => {
    set = mkdtempSync(join(tmpdir(), 'hub-backup-set-'));
    mkdirSync(join(set, '20260101T000000Z'));
    writeFileSync(join(set, '20260101T000000Z', 'database.dump'), 'dump');
  });
  afterEach(() => rmSync(set, { recursive: true, force: true }));

  const withChecksum = async () => {
    const m = manifest();
    m.database.sha256 = await sha256Of(join(set, m.database.path));
    return m;
  };

  it('finds the newest finished backup of a set, and accepts its files', async () => {
    writeManifest(set, await withChecksum());
    // Cut short: no manifest, never chosen.
    mkdirSync(join(set, '20270101T000000Z'));
    const { manifest: found, setRoot } = locateBackup(set);
    expect(found.id).toBe('20260101T000000Z');
    expect(setRoot).toBe(set);
    await expect(verifyFiles(set, found)).resolves.toBeUndefined();
  });

  it('refuses a set whose backups never finished, saying so', () => {
    rmSync(join(set, '20260101T000000Z', 'database.dump'));
    expect(() => locateBackup(set)).toThrow(/no finished backup: 20260101T000000Z lack manifest\.json/);
  });

  it('refuses a damaged manifest', () => {
    writeFileSync(join(set, '20260101T000000Z', 'manifest.json'), '{"format": 1, "id": ');
    expect(() => locateBackup(set)).toThrow(/manifest\.json is damaged/);
  });

  it('refuses a file that changed, and one that is missing, naming both', async () => {
    const m = await withChecksum();
    const bundle = { path: '20260101T000000Z/repositories/default/3.bundle', bytes: 3, sha256: 'x' };
    m.repositories = [{ projectId: 3, shard: 'default', head: 'refs/heads/main', refs: {}, bundles: [bundle] }];
    writeManifest(set, m);
    appendFileSync(join(set, m.database.path), '!');
    await expect(verifyFiles(set, m)).rejects.toThrow(
      /damaged or incomplete, nothing was restored: .*database\.dump has 5 bytes, the manifest says 4; .*3\.bundle is missing/,
    );
    writeFileSync(join(set, m.database.path), 'dumq');
    await expect(verifyFiles(set, m)).rejects.toThrow(/database\.dump does not match its checksum/);
  });
});

describe('placing repositories on restore', () => {
  const repo = (projectId: number, shard: string): RepositoryEntry => ({
    projectId,
    shard,
    head: 'refs/heads/main',
    refs: {},
    bundles: [],
  });

  it('keeps a repository on its shard when there is one of that name, else fills the emptiest', () => {
    const repos = [repo(1, 'default'), repo(2, 'shard2'), repo(3, 'shard2'), repo(4, 'shard3'), repo(5, 'default')];
    expect([...placeRepositories(repos, ['default', 'shard2'])]).toEqual([
      [1, 'default'],
      [2, 'shard2'],
      [3, 'shard2'],
      [4, 'default'],
      [5, 'default'],
    ]);
    expect(new Set(placeRepositories(repos, ['default']).values())).toEqual(new Set(['default']));
    const spread = placeRepositories(repos, ['a', 'b', 'c']);
    expect([...spread.values()].sort()).toEqual(['a', 'a', 'b', 'b', 'c']);
  });
});
