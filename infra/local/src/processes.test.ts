import { spawnSync } from 'node:child_process';
import { HEAP_GROWING_PERCENT, PROCESSES, runtimeV8Flags } from './processes';

describe('runtimeV8Flags', () => {
  it('gives every process kind one heap growth factor: its own where it has one, the default elsewhere', () => {
    for (const spec of PROCESSES) {
      const growth = runtimeV8Flags(spec).filter((flag) => flag.startsWith('--heap-growing-percent='));
      expect(growth).toEqual([`--heap-growing-percent=${spec.heapGrowingPercent ?? HEAP_GROWING_PERCENT}`]);
    }
    // The git worker streams blobs through external memory, which counts towards the limit.
    expect(runtimeV8Flags(PROCESSES.find((spec) => spec.name === 'git-worker')!)).toContain(
      '--heap-growing-percent=100',
    );
    expect(runtimeV8Flags(PROCESSES.find((spec) => spec.name === 'rest-facade')!)).toContain(
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    );
  });

  it('names flags this Node accepts: V8 renames flags between versions, and the image sets them without a check', () => {
    // The image's entry point sets them with v8.setFlagsFromString, which ignores a name it does
    // not know; on a command line Node refuses one, so a rename shows here.
    const kinds = new Set(PROCESSES.map((spec) => JSON.stringify(runtimeV8Flags(spec))));
    for (const kind of kinds) {
      const flags = JSON.parse(kind) as string[];
      const result = spawnSync(process.execPath, [...flags, '-e', 'process.exit(0)'], { encoding: 'utf8' });
      expect({ flags, status: result.status, stderr: result.stderr }).toEqual({ flags, status: 0, stderr: '' });
    }
    const misspelt = spawnSync(process.execPath, ['--heap-growing-percentage=50', '-e', 'process.exit(0)'], {
      encoding: 'utf8',
    });
    expect(misspelt.status).not.toBe(0);
  });
});
