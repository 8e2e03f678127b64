import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { httpProbe } from '../measure';
import { fmtBytes, fmtMBps, verdict } from '../report';
import { largeTreeStream, MIB } from '../seed/fast-import';
import { git, gitWithInput } from '../seed/git';
import type { BenchContext } from './context';
import { serviceGrowth } from './repository';

/**
 * Issue 14's "a 1 GiB archive streams with ≤ 64 MiB RSS growth": a project whose head tree holds
 * `mib` MiB of incompressible files, archived through the facade once as tar.gz and once as tar,
 * the client dropping the bytes as they come, every service's resident memory sampled meanwhile.
 * The tree is written straight into the project's bare repository with fast-import: pushing a GiB
 * through the facade would time the push, which the clone row already covers.
 */
export async function benchLargeArchive(outer: BenchContext, options: { mib: number }): Promise<void> {
  const ctx = { ...outer, user: await outer.newUser('bench-archive') };
  const { report, runner, stack, user } = ctx;
  const project = await user.post<{ id: number }>('/projects', { name: 'bench-large-archive' });
  // The repository is made from the project's creation event.
  const bare = join(stack.env.REPOS_ROOT!, `${project.id}.git`);
  for (const deadline = Date.now() + 30_000; !existsSync(join(bare, 'HEAD'));) {
    if (Date.now() > deadline) throw new Error(`no repository at ${bare} 30 s after the project was created`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  ctx.log(`writing ${options.mib} MiB of files into project ${project.id}'s repository`);
  await gitWithInput(['fast-import', '--quiet'], bare, largeTreeStream(options.mib));
  const head = await git(['rev-parse', 'refs/heads/master'], bare);
  const auth = { 'PRIVATE-TOKEN': user.token };
  const figures: string[] = [];
  let largest = { name: 'none', growth: 0 };
  let ok = true;
  for (const format of ['tar.gz', 'tar']) {
    const label = `facade archive ${format} of ${options.mib} MiB`;
    const url = `${stack.restUrl}/projects/${project.id}/repository/archive.${format}?sha=${head}`;
    try {
      const { ms, value } = await runner.timed(label, () => httpProbe(url, auth)());
      const growth = serviceGrowth(ctx, label);
      if (growth.growth > largest.growth) largest = growth;
      figures.push(
        `${format} ${(value.bytes / 1e6).toFixed(0)} MB in ${(ms / 1000).toFixed(1)} s (${fmtMBps((value.bytes / ms) * 1000)}), largest RSS growth ${growth.name} +${fmtBytes(growth.growth)}`,
      );
      ctx.log(`  ${label}: ${figures.at(-1)}`);
    } catch (error) {
      ok = false;
      figures.push(`${format} failed: ${(error as Error).message.slice(0, 200)}`);
    }
  }
  report.row({
    order: 10.5,
    path: `archive of a ${options.mib >= 1024 ? `${options.mib / 1024} GiB` : `${options.mib} MiB`} tree, one each`,
    figure: figures.join('; '),
    anchor: '—',
    ratio: '—',
    goal: '≤ 64 MiB RSS growth',
    verdict: verdict(ok, largest.growth <= 64 * MIB),
  });
}
