import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gitCli } from '../anchors/git-cli';
import { startHopFloor, type Hop, type HopFloor } from '../anchors/hop-floor';
import { assertSameAnswer, startPartsFloor, type PartsFloor } from '../anchors/parts-floor';
import { startCgiAnchors, type CgiAnchors } from '../anchors/lighttpd';
import { workerAlone } from '../anchors/worker-alone';
import { commandProbe, httpProbe, type Probe, type SerialFigures } from '../measure';
import { FIRST_PUSH_LABEL } from '../labels';
import { fmtBytes, fmtMBps, fmtMs, fmtRate, fmtRatio, verdict } from '../report';
import { git } from '../seed/git';
import { MIB } from '../seed/fast-import';
import { folderBytes, seedRepository, type SeededRepository } from '../seed/repository';
import type { BenchContext } from './context';

/** A bare clone into a fresh folder, answering the bytes it wrote (the pack it received). */
const cloneProbe =
  (url: string, work: string): Probe =>
  async () => {
    const dir = mkdtempSync(join(work, 'clone-'));
    try {
      await commandProbe('git', ['clone', '-q', '--bare', '--no-local', url, join(dir, 'c.git')])();
      return { bytes: folderBytes(join(dir, 'c.git', 'objects')) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

/**
 * The largest RSS growth (with children) of the stack's own services during a target: Postgres
 * (whose backends each count the shared buffers they touch), this process and the anchors are not
 * what the issue's 64 MiB bound is about.
 */
export function serviceGrowth(ctx: BenchContext, label: string): { name: string; growth: number } {
  const services = new Set(ctx.stack.processes.map((p) => p.name));
  const figures = Object.entries(ctx.report.processes[label] ?? {}).filter(([name]) => services.has(name));
  return (
    figures.map(([name, f]) => ({ name, growth: f.growth })).sort((a, b) => b.growth - a.growth)[0] ?? {
      name: 'none',
      growth: 0,
    }
  );
}

/**
 * A probe that takes the next pair on each call and fails once they run out: past that, pairs
 * would come again and be answered from the worker's cache, which is not what it measures.
 */
const eachPairOnce = <T>(pairs: T[], probeOf: (pair: T) => Probe): Probe => {
  let next = 0;
  return async () => {
    if (next >= pairs.length) throw new Error(`all ${pairs.length} distinct pairs used`);
    return probeOf(pairs[next++])();
  };
};

/**
 * The issue's targets for the git reads: raw blobs at 32 connections against cgit (which forks a
 * CGI process per request), and the root tree and a cold compare against the git CLI.
 */
const RAW_32_GOAL = 1.5;
const TREE_GOAL = 0.5;
const COMPARE_GOAL = 1.0;

/** Throughput of one-at-a-time downloads: bytes of one answer over the median time. */
const mbps = (f: SerialFigures) => (f.bytes / f.p50) * 1000;

/**
 * The repository routes against the git CLI on the same bare repository, cgit for raw blobs and
 * snapshots, and `git http-backend` for clone; contributors cold, warm and at full concurrency
 * with the git worker's and repository's memory watched.
 */
export async function benchRepository(
  outer: BenchContext,
  spec: { commits: number; headMiB: number; historyMiB: number },
): Promise<void> {
  // A user of its own: the list user's 100,000 memberships must not weigh on these routes.
  const ctx = { ...outer, user: await outer.newUser('bench-git') };
  const { report, stack, user } = ctx;
  ctx.log(
    `generating and pushing a repository of ${spec.commits} commits (${spec.headMiB} MiB tree, ${spec.historyMiB} MiB more history)`,
  );
  const started = performance.now();
  // Sampled for the capacity model: the git worker's CPU and disk for one large first push.
  const { value: repo } = await ctx.runner.timed(FIRST_PUSH_LABEL, () =>
    seedRepository(user, { ...spec, rootFiles: 300 }, ctx.work, stack.env.REPOS_ROOT!),
  );
  ctx.log(
    `  pushed in ${((performance.now() - started) / 1000).toFixed(1)} s: ${repo.commits} commits, ${fmtBytes(repo.packBytes)} on disk at ${repo.diskPath}`,
  );
  report.record('repository', repo);
  const cgi = await startCgiAnchors(repo.diskPath, ctx.work, ctx.log);
  if (cgi.ok) ctx.sample('lighttpd (cgit, http-backend)', cgi.anchors.pid);
  else report.note(`cgit and git http-backend anchors not available: ${cgi.why}`);
  try {
    await measureReads(ctx, repo, cgi.ok ? cgi.anchors : null, cgi.ok ? null : cgi.why);
  } finally {
    if (cgi.ok) await cgi.anchors.stop();
  }
}

async function measureReads(ctx: BenchContext, repo: SeededRepository, cgi: CgiAnchors | null, cgiWhy: string | null) {
  const { runner, report, stack, user } = ctx;
  const auth = { 'PRIVATE-TOKEN': user.token };
  const api = `${stack.restUrl}/projects/${repo.projectId}/repository`;
  const cli = gitCli(repo.diskPath);
  const na = (what: string) => `${what}: not available (${cgiWhy})`;
  const ratioRow = (
    order: number,
    path: string,
    ours: SerialFigures,
    anchorName: string,
    anchor: SerialFigures,
    limit: number,
    more = '',
  ) =>
    report.row({
      order,
      path,
      figure: `p50 ${fmtMs(ours.p50)}, p99 ${fmtMs(ours.p99)}${ours.errors ? `, ${ours.errors} errors` : ''}${more}`,
      anchor: `${anchorName}: ${fmtMs(anchor.p50)}`,
      ratio: fmtRatio(ours.p50 / anchor.p50),
      goal: `≤ ${limit.toFixed(1)}× ${anchorName}`,
      verdict: verdict(ours.p50 / anchor.p50 <= limit, ours.errors === 0),
    });

  // Raw blob, 1 MiB: 32 parallel against cgit, one at a time against git cat-file.
  const rawUrl = `${api}/raw_blobs/${repo.assetBlob}`;
  const parallel = await runner.load([
    { name: 'facade raw_blobs 1 MiB', load: { url: rawUrl, headers: auth, largeBodies: true } },
    ...(cgi ? [{ name: 'cgit blob 1 MiB', load: { url: cgi.blobUrl(repo.assetBlob), largeBodies: true } }] : []),
  ]);
  const raw = parallel['facade raw_blobs 1 MiB'];
  const cgitRaw = parallel['cgit blob 1 MiB'];
  report.row({
    order: 4,
    path: '`raw_blobs/:sha`, 1 MiB, 32 parallel',
    figure: `${fmtRate(raw.rps)} (${fmtMBps(raw.bytesPerSecond)}), p99 ${fmtMs(raw.p99)}, ${raw.errors} errors`,
    anchor: cgitRaw ? `cgit (CGI, fork per request): ${fmtRate(cgitRaw.rps)}` : na('cgit'),
    ratio: cgitRaw ? fmtRatio(raw.rps / cgitRaw.rps) : 'n/a',
    goal: `≥ ${RAW_32_GOAL.toFixed(1)}× cgit`,
    verdict: cgitRaw ? verdict(raw.rps / cgitRaw.rps >= RAW_32_GOAL, raw.errors === 0) : 'not available',
  });

  // The floor each route's hops set (plain Node stand-ins, same calls, same answer sizes): where it
  // is slower than the git CLI already, the ratio cannot reach the target with these parts.
  const treePath = `/projects/${repo.projectId}/repository/tree?ref_name=${repo.head}`;
  const comparePathOf = (from: string, to: string) =>
    `/projects/${repo.projectId}/repository/compare?from=${from}&to=${to}`;
  const comparePath = comparePathOf(repo.compareFrom, repo.head);
  // The worker keeps compares by commit pair: a cold compare is one of a pair never asked before.
  // Pairs as far apart as the repeated one, each a commit further down master (the first is the
  // repeated pair itself, which the parts floor's check below has already asked).
  const chain = (await git(['rev-list', '--first-parent', 'refs/heads/master'], repo.diskPath)).split('\n');
  const span = chain.indexOf(repo.compareFrom);
  const pairs = chain.slice(1, chain.length - span).map((to, k) => ({ from: chain[k + 1 + span], to }));
  // The facade and the CLI walk the first half, the worker alone the second: a pair the facade
  // has asked is in the worker's cache, and its second asking would not be cold.
  const [coldPairs, workerPairs] = [pairs.slice(0, pairs.length >> 1), pairs.slice(pairs.length >> 1)];
  // The facade keeps what it rendered of a folder by tree id, and repository a folder's tree id by
  // commit: a cold tree is the root at a commit never asked before (each commit's root differs).
  const treeAt = (commit: string) => `/projects/${repo.projectId}/repository/tree?ref_name=${commit}`;
  const coldTrees = chain.slice(1);
  const floors = await startFloors(auth, {
    raw: rawUrl,
    blob: `${api}/blobs/${repo.head}?filepath=${encodeURIComponent(repo.assetPath)}`,
    tree: stack.restUrl + treePath,
    compare: stack.restUrl + comparePath,
  });
  // And the floor of the parts themselves (the same processes' HTTP and GraphQL layers, subgraph
  // answers replayed from memory) for the two reads whose hop floor is far below their time.
  let parts: PartsFloor | null = null;
  let serial: Record<string, SerialFigures>;
  // Opened here, after the floors, so the finally below closes it whatever fails.
  const worker = workerAlone(`127.0.0.1:${stack.env.GIT_WORKER_GRPC_PORT}`, stack.env.PRINCIPAL_SECRET!);
  try {
    parts = await startPartsFloor(stack);
    for (const { name, pid } of parts.pids) ctx.sample(name, pid);
    await assertSameAnswer(stack.restUrl, parts, treePath, auth);
    await assertSameAnswer(stack.restUrl, parts, comparePath, auth);
    serial = await runner.serial([
      { name: 'facade raw_blobs one at a time', probe: httpProbe(rawUrl, auth) },
      { name: 'git cat-file -p <blob>', probe: cli.rawBlob(repo.assetBlob) },
      { name: 'hop floor raw_blobs', probe: httpProbe(floors.raw.url) },
      {
        name: 'facade blobs/:sha?filepath= one at a time',
        probe: httpProbe(`${api}/blobs/${repo.head}?filepath=${encodeURIComponent(repo.assetPath)}`, auth),
      },
      { name: 'git cat-file -p <commit>:<path>', probe: cli.blobAtPath(repo.head, repo.assetPath) },
      { name: 'hop floor blobs', probe: httpProbe(floors.blob.url) },
      { name: 'facade tree root one at a time', probe: httpProbe(stack.restUrl + treePath, auth) },
      { name: 'git ls-tree <commit>', probe: cli.tree(repo.head) },
      {
        name: 'facade tree root, a commit not asked before',
        probe: eachPairOnce(coldTrees, (commit) => httpProbe(stack.restUrl + treeAt(commit), auth)),
      },
      { name: 'hop floor tree', probe: httpProbe(floors.tree.url) },
      { name: 'parts floor tree', probe: httpProbe(parts.restUrl + treePath, auth) },
      { name: 'git worker alone tree', probe: worker.tree(repo.projectId, repo.head) },
      {
        name: 'facade compare 100 commits, a new pair each time',
        probe: eachPairOnce(coldPairs, ({ from, to }) => httpProbe(stack.restUrl + comparePathOf(from, to), auth)),
      },
      {
        name: 'git diff + git log (100 commits), a new pair each time',
        probe: eachPairOnce(coldPairs, ({ from, to }) => cli.compare(from, to)),
      },
      { name: 'facade compare 100 commits, the same pair again', probe: httpProbe(stack.restUrl + comparePath, auth) },
      { name: 'hop floor compare', probe: httpProbe(floors.compare.url) },
      { name: 'parts floor compare', probe: httpProbe(parts.restUrl + comparePath, auth) },
      {
        name: 'git worker alone compare, a new pair each time',
        probe: eachPairOnce(workerPairs, ({ from, to }) => worker.compare(repo.projectId, from, to)),
      },
    ]);
  } finally {
    worker.close();
    await Promise.all([...Object.values(floors).map((f) => f.stop()), parts?.stop()]);
  }
  const floorNote = (floor: SerialFigures, anchor: SerialFigures) =>
    `; hop floor (the same hops, no work) ${fmtMs(floor.p50)} = ${fmtRatio(floor.p50 / anchor.p50)} the anchor`;
  ratioRow(
    5,
    '`raw_blobs/:sha`, one at a time',
    serial['facade raw_blobs one at a time'],
    '`git cat-file -p`',
    serial['git cat-file -p <blob>'],
    1.0,
    floorNote(serial['hop floor raw_blobs'], serial['git cat-file -p <blob>']),
  );
  const partsNote = (floor: SerialFigures, anchor: SerialFigures) =>
    `; parts floor (the same parts, subgraph answers replayed from memory) ${fmtMs(floor.p50)} = ${fmtRatio(floor.p50 / anchor.p50)} the anchor`;
  const workerNote = (alone: SerialFigures, anchor: SerialFigures) =>
    `; the git worker alone (over gRPC, no subgraph or facade) ${fmtMs(alone.p50)} = ${fmtRatio(alone.p50 / anchor.p50)} the anchor`;
  const coldTreeNote = (cold: SerialFigures, anchor: SerialFigures) =>
    `; at a commit not asked before (nothing kept for its folder yet) ${fmtMs(cold.p50)} = ${fmtRatio(cold.p50 / anchor.p50)} the anchor`;
  const [lsTree, diffLog] = [
    serial['git ls-tree <commit>'],
    serial['git diff + git log (100 commits), a new pair each time'],
  ];
  const repeated = serial['facade compare 100 commits, the same pair again'];
  const repeatedNote = `; the same pair again (the worker's cache by commit pair) ${fmtMs(repeated.p50)} = ${fmtRatio(repeated.p50 / diffLog.p50)} the anchor`;
  ratioRow(
    7,
    '`repository/tree` root, one at a time',
    serial['facade tree root one at a time'],
    '`git ls-tree`',
    lsTree,
    TREE_GOAL,
    coldTreeNote(serial['facade tree root, a commit not asked before'], lsTree) +
      floorNote(serial['hop floor tree'], lsTree) +
      partsNote(serial['parts floor tree'], lsTree) +
      workerNote(serial['git worker alone tree'], lsTree),
  );
  ratioRow(
    8,
    '`repository/compare` over 100 commits, a pair not asked before',
    serial['facade compare 100 commits, a new pair each time'],
    '`git diff` + `git log` (the same pairs)',
    diffLog,
    COMPARE_GOAL,
    repeatedNote +
      floorNote(serial['hop floor compare'], diffLog) +
      partsNote(serial['parts floor compare'], diffLog) +
      workerNote(serial['git worker alone compare, a new pair each time'], diffLog),
  );

  const blobLoad = await runner.load([
    {
      name: 'facade blobs/:sha?filepath= 1 MiB',
      load: {
        url: `${api}/blobs/${repo.head}?filepath=${encodeURIComponent(repo.assetPath)}`,
        headers: auth,
        largeBodies: true,
      },
    },
  ]);
  const blob32 = blobLoad['facade blobs/:sha?filepath= 1 MiB'];
  const at32 = `; at 32 connections ${fmtRate(blob32.rps)} (${fmtMBps(blob32.bytesPerSecond)}), p99 ${fmtMs(blob32.p99)}, ${blob32.errors} errors`;
  ratioRow(
    6,
    '`blobs/:sha?filepath=` (1 MiB), one at a time',
    serial['facade blobs/:sha?filepath= one at a time'],
    '`git cat-file -p sha:path`',
    serial['git cat-file -p <commit>:<path>'],
    1.0,
    at32 + floorNote(serial['hop floor blobs'], serial['git cat-file -p <commit>:<path>']),
  );

  // Archive (tar.gz of the head tree) and clone, one at a time, in MB/s.
  const archiveFigures = await runner.serial([
    { name: 'facade archive tar.gz', probe: httpProbe(`${api}/archive.tar.gz?sha=${repo.head}`, auth), warm: 1 },
    { name: 'git archive | gzip', probe: cli.archive(repo.head), warm: 1 },
    ...(cgi ? [{ name: 'cgit snapshot tar.gz', probe: httpProbe(cgi.snapshotUrl(repo.head)), warm: 1 }] : []),
  ]);
  const archive = archiveFigures['facade archive tar.gz'];
  const gitArchive = archiveFigures['git archive | gzip'];
  const cgitArchive = archiveFigures['cgit snapshot tar.gz'];
  const archiveGrowth = serviceGrowth(ctx, 'facade archive tar.gz');
  report.row({
    order: 10,
    path: `archive tar.gz ${(archive.bytes / 1e6).toFixed(0)} MB`,
    figure: `${fmtMBps(mbps(archive))} (${fmtMs(archive.p50)} each), largest RSS growth ${archiveGrowth.name} +${fmtBytes(archiveGrowth.growth)}`,
    anchor: `${cgitArchive ? `cgit ${fmtMBps(mbps(cgitArchive))}` : na('cgit')}; \`git archive\` ${fmtMBps(mbps(gitArchive))}`,
    ratio: `${cgitArchive ? fmtRatio(mbps(archive) / mbps(cgitArchive)) : 'n/a'} / ${fmtRatio(mbps(archive) / mbps(gitArchive))}`,
    goal: '≥ 0.9× `git archive`; ≤ 64 MiB RSS growth',
    verdict: verdict(mbps(archive) / mbps(gitArchive) >= 0.9, archiveGrowth.growth <= 64 * MIB, archive.errors === 0),
  });

  const cloneFigures = await runner.serial([
    { name: 'facade git clone', probe: cloneProbe(user.gitUrl(repo.pathWithNamespace), ctx.work), warm: 1 },
    ...(cgi ? [{ name: 'git http-backend clone', probe: cloneProbe(cgi.cloneUrl, ctx.work), warm: 1 }] : []),
  ]);
  const clone = cloneFigures['facade git clone'];
  const backend = cloneFigures['git http-backend clone'];
  report.row({
    order: 11,
    path: `\`git clone\` ${(clone.bytes / 1e6).toFixed(0)} MB`,
    figure: `${fmtMBps(mbps(clone))} (${fmtMs(clone.p50)} each)`,
    anchor: backend ? `\`git http-backend\` direct: ${fmtMBps(mbps(backend))}` : na('git http-backend'),
    ratio: backend ? fmtRatio(mbps(clone) / mbps(backend)) : 'n/a',
    goal: '≥ 0.9× `git http-backend`',
    verdict: backend ? verdict(mbps(clone) / mbps(backend) >= 0.9, clone.errors === 0) : 'not available',
  });

  await benchContributors(ctx, repo, api, auth);
}

/**
 * Contributors last: each cold request needs a commit the service has not seen (a cache keyed by
 * commit must miss), so every round pushes one more empty commit first.
 */
async function benchContributors(ctx: BenchContext, repo: SeededRepository, api: string, auth: Record<string, string>) {
  const { runner, report, user } = ctx;
  const source = join(ctx.work, 'source.git');
  const cli = gitCli(repo.diskPath);
  const cold: number[] = [];
  const coldCli: number[] = [];
  let head = repo.head;
  for (let r = 0; r < runner.options.rounds; r++) {
    const tree = await git(['rev-parse', `${head}^{tree}`], source);
    const env = {
      GIT_AUTHOR_NAME: 'Bench',
      GIT_AUTHOR_EMAIL: 'bench@bench.example',
      GIT_AUTHOR_DATE: `${1_500_000_000 + r} +0000`,
    };
    head = await git(
      [
        '-c',
        `user.name=${env.GIT_AUTHOR_NAME}`,
        '-c',
        `user.email=${env.GIT_AUTHOR_EMAIL}`,
        'commit-tree',
        tree,
        '-p',
        head,
        '-m',
        `cold round ${r}`,
      ],
      source,
    );
    await git(['push', '-q', user.gitUrl(repo.pathWithNamespace), `${head}:refs/heads/master`], source);
    cold.push(
      (await runner.timed('facade contributors, first request', () => httpProbe(`${api}/contributors`, auth)())).ms,
    );
    coldCli.push((await runner.timed('git log --numstat (first)', () => cli.logNumstat(head)())).ms);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const warm = await runner.serial([
    { name: 'facade contributors repeated', probe: httpProbe(`${api}/contributors`, auth) },
    { name: 'git shortlog -sne', probe: cli.shortlog(head) },
    { name: 'git log --numstat', probe: cli.logNumstat(head) },
  ]);
  // At least 10 s even in --quick: 32 slow requests in flight must finish inside the round to count.
  const loaded = await runner.load([
    {
      name: 'facade contributors, 32 connections',
      load: { url: `${api}/contributors`, headers: auth },
      minDuration: 10,
    },
  ]);
  const load = loaded['facade contributors, 32 connections'];
  const procs = report.processes['facade contributors, 32 connections'] ?? {};
  const peak = (name: string) =>
    procs[name] ? `${name} ${fmtBytes(procs[name].peakTreeRss)} (+${fmtBytes(procs[name].growth)})` : `${name} n/a`;
  // The bound is per request: measured while requests run one at a time (the first after a push
  // computes the whole history; a repeated one answers from the cache). At 32 connections every
  // process's heap grows with the requests in flight, which the row shows beside it.
  const perRequest = ['facade contributors, first request', 'facade contributors repeated']
    .map((label) => serviceGrowth(ctx, label))
    .sort((a, b) => b.growth - a.growth)[0];
  const growth = perRequest.growth;
  const coldMs = median(cold);
  const numstat = warm['git log --numstat'];
  const shortlog = warm['git shortlog -sne'];
  const repeated = warm['facade contributors repeated'];
  report.record('contributors cold', { facadeMs: cold, gitLogNumstatMs: coldCli });
  report.row({
    order: 9,
    path: `\`repository/contributors\` (${repo.commits.toLocaleString('en-US')} commits)`,
    figure: `first request after a push ${fmtMs(coldMs)}, repeated ${fmtMs(repeated.p50)}, largest RSS growth one at a time ${perRequest.name} +${fmtBytes(growth)}; at 32 connections ${fmtRate(load.rps)} (${load.completed} answered), p99 ${fmtMs(load.p99)}, ${load.errors} errors, peak ${peak('git-worker')}, ${peak('repository')}, ${peak('rest-facade')}`,
    anchor: `\`git log --numstat\` ${fmtMs(numstat.p50)} (first: ${fmtMs(median(coldCli))}); \`git shortlog -sne\` ${fmtMs(shortlog.p50)}`,
    ratio: `${fmtRatio(coldMs / numstat.p50)} cold / ${fmtRatio(repeated.p50 / shortlog.p50)} repeated vs shortlog`,
    goal: '≤ 1.0× `git log --numstat` cold; no request grows a process by > 64 MiB',
    verdict: verdict(coldMs / numstat.p50 <= 1.0, growth <= 64 * MIB, load.errors === 0 && repeated.errors === 0),
  });
}

/** A subgraph's answer about the project (its fields and the access answer): about this size. */
const PROJECT_ANSWER = 1024;

/**
 * The hops of each route as the stack makes them one at a time: the facade (its gateway in
 * process, credentials cached) asks projects to authorize; downloads call the git worker beside
 * that, reads of tree and compare go to repository after it (the plan needs the project's default
 * branch), which calls the git worker. Answer sizes are the real answers' sizes.
 */
async function startFloors(auth: Record<string, string>, urls: Record<'raw' | 'blob' | 'tree' | 'compare', string>) {
  const sizeOf = async (url: string) => Buffer.from(await (await fetch(url, { headers: auth })).arrayBuffer()).length;
  const download = (bytes: number): Hop => ({
    name: 'rest-facade',
    bytes,
    steps: [
      [
        { name: 'projects', bytes: PROJECT_ANSWER },
        { name: 'git-worker', bytes },
      ],
    ],
  });
  const read = (bytes: number): Hop => ({
    name: 'rest-facade',
    bytes,
    steps: [
      [{ name: 'projects', bytes: PROJECT_ANSWER }],
      [{ name: 'repository', bytes, steps: [[{ name: 'git-worker', bytes }]] }],
    ],
  });
  const floors: Record<string, HopFloor> = {};
  try {
    floors.raw = await startHopFloor(download(await sizeOf(urls.raw)));
    floors.blob = await startHopFloor(download(await sizeOf(urls.blob)));
    floors.tree = await startHopFloor(read(await sizeOf(urls.tree)));
    floors.compare = await startHopFloor(read(await sizeOf(urls.compare)));
  } catch (error) {
    await Promise.all(Object.values(floors).map((f) => f.stop()));
    throw error;
  }
  return floors as Record<'raw' | 'blob' | 'tree' | 'compare', HopFloor>;
}
