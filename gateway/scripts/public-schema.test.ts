import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const { schemaChanges } = require('./public-schema.cjs') as {
  schemaChanges(accepted: string, built: string): Promise<{ changes: string[]; breaking: string[] }>;
};

const accepted = `
  "Root."
  type Query {
    "A project."
    project(id: Int!, fullPath: String): Project
    "Old."
    old: String @deprecated(reason: "Use project.")
  }
  "A project."
  type Project {
    "Its id."
    id: Int!
    "Its name."
    name: String!
  }
`;

describe('the public schema’s changes', () => {
  it('holds the checked-in schema equal to the build’s', () => {
    const check = spawnSync(process.execPath, [resolve(__dirname, 'public-schema.cjs'), 'check'], { encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it.each([
    ['a field removed', accepted.replace('    "Its name."\n    name: String!\n', ''), /Field 'name' .*removed/],
    ['a field retyped', accepted.replace('name: String!', 'name: Int!'), /Field 'Project.name' changed type/],
    ['a required argument added', accepted.replace('fullPath: String', 'fullPath: String!'), /fullPath/],
    [
      'a type made nullable in a result',
      accepted.replace('    id: Int!', '    id: Int'),
      /Field 'Project.id' changed type/,
    ],
  ])('calls %s breaking', async (_name, built, message) => {
    const { breaking } = await schemaChanges(accepted, built);
    expect(breaking).toEqual([expect.stringMatching(message)]);
  });

  it('lets an argument deprecated first go, and refuses to let one go that was not', async () => {
    const withDeprecated = accepted.replace('fullPath: String)', 'fullPath: String @deprecated(reason: "Use id."))');
    const without = accepted.replace(', fullPath: String)', ')');
    expect((await schemaChanges(withDeprecated, without)).breaking).toEqual([]);
    expect((await schemaChanges(accepted, without)).breaking).toEqual([
      expect.stringMatching(/'fullPath: String' was removed/),
    ]);
  });

  it('lets a field deprecated first go, and a new field come, without breaking; both are changes to record', async () => {
    const built = accepted
      .replace('    "Old."\n    old: String @deprecated(reason: "Use project.")\n', '')
      .replace('    "Its name."\n', '    "Its path."\n    path: String\n    "Its name."\n');
    const { changes, breaking } = await schemaChanges(accepted, built);
    expect(breaking).toEqual([]);
    expect(changes).toEqual(
      expect.arrayContaining([expect.stringMatching(/old.*removed/), expect.stringMatching(/'path' was added/)]),
    );
  });
});
