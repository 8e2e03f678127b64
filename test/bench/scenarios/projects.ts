import { INTERNAL_GRAPHQL_PATH, LIMITED_HEADER, signLimited } from '@hub/common';
import { capture, startMemoryServer } from '../anchors/memory-server';
import { assertSameAnswer, startPartsFloor } from '../anchors/parts-floor';
import { PROJECT_BYTES_LABEL } from '../labels';
import { httpProbe } from '../measure';
import { facadeOperation } from '../operations';
import { fmtMs, fmtRate, fmtRatio, verdict } from '../report';
import { ProjectSeeder } from '../seed/projects';
import type { BenchContext } from './context';

/** The same route on the parts floor (anchors/parts-floor.ts): what the named parts alone allow. */
const partsFloorNote = (floor: { rps: number; p50: number; p99: number }) =>
  `parts floor (the same parts, subgraph answers replayed from memory) ${fmtRate(floor.rps)}, p50 ${fmtMs(floor.p50)}, p99 ${fmtMs(floor.p99)}`;

/**
 * GET /projects/:id and the 100-per-page list against a plain Node server answering the same
 * bytes; the same project query straight to the gateway; the list's page 1 at 1,000 projects and
 * (unless --quick) at 100,000.
 */
export async function benchProjects(ctx: BenchContext): Promise<void> {
  const { runner, report, stack, user } = ctx;
  const options = runner.options;
  const seeder = new ProjectSeeder(user, stack.env.DATABASE_URL!);
  const auth = { 'PRIVATE-TOKEN': user.token };
  const listPath = '/projects?per_page=100';
  try {
    ctx.log('seeding 1,000 projects');
    await seeder.topUp(1_000);
    const small = await runner.load([
      { name: 'list page 1 @ 1,000 projects', load: { url: stack.restUrl + listPath, headers: auth } },
    ]);
    const smallAlone = await runner.serial([
      { name: 'list page 1 one at a time @ 1,000 projects', probe: httpProbe(stack.restUrl + listPath, auth) },
    ]);

    ctx.log(`seeding ${options.listProjects.toLocaleString('en-US')} projects`);
    const projectId = await seeder.topUp(options.listProjects);
    report.record(PROJECT_BYTES_LABEL, seeder.lastCopy);
    const projectPath = `/projects/${projectId}`;
    const memory = await startMemoryServer(
      {
        [`/api/v3${projectPath}`]: await capture(stack.restUrl + projectPath, auth),
        [`/api/v3${listPath}`]: await capture(stack.restUrl + listPath, auth),
      },
      ctx.work,
    );
    ctx.sample('memory-anchor', memory.pid);
    const floor = await startPartsFloor(stack).catch(async (error) => {
      await memory.stop();
      throw error;
    });
    for (const { name, pid } of floor.pids) ctx.sample(name, pid);
    try {
      await assertSameAnswer(stack.restUrl, floor, projectPath, auth);
      await assertSameAnswer(stack.restUrl, floor, listPath, auth);
      const gatewayBody = JSON.stringify({
        query: facadeOperation('projects.graphql', 'GetProject'),
        variables: { id: projectId },
      });
      // The facade's document reads fields only its contract has: sent as the facade sends it.
      const internalUrl = stack.graphqlUrl.replace(/\/graphql$/, INTERNAL_GRAPHQL_PATH);
      const gatewayHeaders = {
        ...auth,
        'content-type': 'application/json',
        [LIMITED_HEADER]: signLimited('127.0.0.1', stack.env.PRINCIPAL_SECRET!),
      };
      const check = await fetch(internalUrl, { method: 'POST', headers: gatewayHeaders, body: gatewayBody });
      const checked = (await check.json()) as { data?: { project?: { id: number } }; errors?: unknown };
      if (!checked.data?.project)
        throw new Error(`the gateway did not answer the project query: ${JSON.stringify(checked).slice(0, 500)}`);
      const tagged = await fetch(stack.restUrl + projectPath, { headers: auth });
      const etag = tagged.headers.get('etag');
      await tagged.body?.cancel();
      if (!etag) throw new Error(`GET ${projectPath} answered without an ETag`);
      const conditional = { ...auth, 'If-None-Match': etag };
      const one = await runner.load([
        { name: 'facade GET /projects/:id', load: { url: stack.restUrl + projectPath, headers: auth } },
        {
          name: 'facade conditional GET /projects/:id',
          load: { url: stack.restUrl + projectPath, headers: conditional, status: 304 },
        },
        { name: 'memory anchor GET /projects/:id', load: { url: `${memory.url}/api/v3${projectPath}` } },
        { name: 'parts floor GET /projects/:id', load: { url: floor.restUrl + projectPath, headers: auth } },
        {
          name: 'gateway GetProject',
          load: { url: internalUrl, method: 'POST', headers: gatewayHeaders, body: gatewayBody },
        },
      ]);
      const facade = one['facade GET /projects/:id'];
      const anchor = one['memory anchor GET /projects/:id'];
      const gateway = one['gateway GetProject'];
      const facadeFloor = one['parts floor GET /projects/:id'];
      report.row({
        order: 1,
        path: '`GET /projects/:id`',
        figure: `${fmtRate(facade.rps)}, p50 ${fmtMs(facade.p50)}, p99 ${fmtMs(facade.p99)}, ${facade.errors} errors; ${partsFloorNote(facadeFloor)}`,
        anchor: `plain Node server, same bytes: ${fmtRate(anchor.rps)}`,
        ratio: fmtRatio(facade.rps / anchor.rps),
        goal: '≥ 1,500 req/s, p99 ≤ 25 ms',
        verdict: verdict(facade.rps >= 1_500, facade.p99 <= 25, facade.errors === 0),
      });
      const notModified = one['facade conditional GET /projects/:id'];
      report.row({
        order: 1.5,
        path: '`GET /projects/:id` with a current `If-None-Match` (304)',
        figure: `${fmtRate(notModified.rps)}, p50 ${fmtMs(notModified.p50)}, p99 ${fmtMs(notModified.p99)}, ${notModified.errors} errors`,
        anchor: `the same GET unconditional: ${fmtRate(facade.rps)}`,
        ratio: fmtRatio(notModified.rps / facade.rps),
        goal: '≥ 5× the unconditional rate',
        verdict: verdict(notModified.rps >= 5 * facade.rps, notModified.errors === 0),
      });
      report.row({
        order: 12,
        path: 'facade vs gateway, same project query',
        figure: `${fmtRate(facade.rps)} vs ${fmtRate(gateway.rps)} (gateway p99 ${fmtMs(gateway.p99)})`,
        anchor: '—',
        ratio: (facade.rps / gateway.rps).toFixed(2),
        goal: '— (issue: 0.80 before)',
        verdict: '—',
      });

      const list = await runner.load([
        {
          name: `facade list page (${options.listProjects} projects)`,
          load: { url: stack.restUrl + listPath, headers: auth },
        },
        { name: 'memory anchor list page', load: { url: `${memory.url}/api/v3${listPath}` } },
        { name: 'parts floor list page', load: { url: floor.restUrl + listPath, headers: auth } },
      ]);
      const ours = list[`facade list page (${options.listProjects} projects)`];
      const plain = list['memory anchor list page'];
      const listFloor = list['parts floor list page'];
      report.row({
        order: 2,
        path: `\`GET /projects?per_page=100\` (${options.listProjects.toLocaleString('en-US')} projects)`,
        figure: `${fmtRate(ours.rps)}, p50 ${fmtMs(ours.p50)}, p99 ${fmtMs(ours.p99)}, ${ours.errors} errors; ${partsFloorNote(listFloor)}`,
        anchor: `same bytes from memory: ${fmtRate(plain.rps)}`,
        ratio: fmtRatio(ours.rps / plain.rps),
        goal: '≥ 500 req/s, p99 ≤ 150 ms',
        verdict: verdict(ours.rps >= 500, ours.p99 <= 150, ours.errors === 0),
      });
    } finally {
      await Promise.all([memory.stop(), floor.stop()]);
    }

    const at1k = small['list page 1 @ 1,000 projects'];
    const alone1k = smallAlone['list page 1 one at a time @ 1,000 projects'];
    if (options.quick) {
      report.row({
        order: 3,
        path: 'list page 1 at 100,000 vs 1,000 projects',
        figure: `1,000: ${fmtMs(alone1k.p50)} alone, ${fmtRate(at1k.rps)} at ${options.connections} connections; 100,000: not measured (--quick)`,
        anchor: '—',
        ratio: 'n/a',
        goal: '≤ 1.5× the cost at 1,000',
        verdict: 'not available',
      });
      return;
    }
    ctx.log(`seeding ${options.largeProjects.toLocaleString('en-US')} projects`);
    await seeder.topUp(options.largeProjects);
    report.record(PROJECT_BYTES_LABEL, seeder.lastCopy);
    report.note(
      `seeding: ${(options.largeProjects - options.listProjects).toLocaleString('en-US')} projects copied in ${seeder.lastCopySeconds.toFixed(1)} s (one INSERT … SELECT per table, the tables' triggers included)`,
    );
    const largeName = `list page 1 one at a time @ ${options.largeProjects} projects`;
    const alone100k = (await runner.serial([{ name: largeName, probe: httpProbe(stack.restUrl + listPath, auth) }]))[
      largeName
    ];
    const large = await runner.load([
      {
        name: `list page 1 @ ${options.largeProjects} projects`,
        load: { url: stack.restUrl + listPath, headers: auth },
        minDuration: 10,
      },
    ]);
    const at100k = large[`list page 1 @ ${options.largeProjects} projects`];
    // The cost of page 1 is its time alone (one request at a time): at 32 connections a slow
    // page queues, and requests still in flight when a round ends are not counted at all.
    const cost = alone100k.p50 / alone1k.p50;
    const size = options.largeProjects.toLocaleString('en-US');
    report.row({
      order: 3,
      path: `list page 1 at ${size} vs 1,000 projects`,
      figure: `alone: ${fmtMs(alone1k.p50)} at 1,000, ${fmtMs(alone100k.p50)} at ${size}; at ${options.connections} connections: ${fmtRate(at1k.rps)} at 1,000, ${fmtRate(at100k.rps)} (p99 ${fmtMs(at100k.p99)}) at ${size}`,
      anchor: '— (the same route at 1,000)',
      ratio: `${fmtRatio(cost)} (throughput ${fmtRatio(at1k.rps / at100k.rps)})`,
      goal: '≤ 1.5×',
      verdict: verdict(cost <= 1.5, alone100k.errors === 0, at100k.errors === 0),
    });
  } finally {
    await seeder.close();
  }
}
