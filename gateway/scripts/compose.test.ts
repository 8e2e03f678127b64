import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const script = resolve(__dirname, 'compose.cjs');

describe('build-time composition', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'compose-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const compose = (subgraphs: Array<{ name: string; sdl: string }>) => {
    const list = subgraphs.map(({ name, sdl }) => {
      const file = join(dir, `${name}.graphql`);
      writeFileSync(file, sdl);
      return { name, sdl: file, urlVariable: 'X' };
    });
    writeFileSync(join(dir, 'list.json'), JSON.stringify(list));
    return spawnSync(process.execPath, [script, join(dir, 'list.json'), join(dir, 'out')], { encoding: 'utf8' });
  };
  const header = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.5", import: ["@key"])\n';

  it('composes the real subgraphs', () => {
    const result = spawnSync(process.execPath, [script, resolve(__dirname, '..', 'subgraphs.json'), join(dir, 'out')], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(existsSync(join(dir, 'out', 'supergraph.graphql'))).toBe(true);
    expect(existsSync(join(dir, 'out', 'api-schema.graphql'))).toBe(true);
  });

  it('fails the build when subgraphs disagree', () => {
    const result = compose([
      { name: 'a', sdl: header + 'type Thing @key(fields: "id") { id: Int! size: Int! } type Query { thing: Thing }' },
      {
        name: 'b',
        sdl: header + 'type Thing @key(fields: "id") { id: Int! size: String! } type Query { other: Thing }',
      },
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/composition error/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('fails the build on a key naming a missing field', () => {
    const result = compose([
      { name: 'a', sdl: header + 'type Thing @key(fields: "nope") { id: Int! } type Query { thing: Thing }' },
    ]);
    expect(result.status).toBe(1);
  });
});
