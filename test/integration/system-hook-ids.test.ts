import { createSql, type Sql } from '@hub/common';
import { allSystemHookIds } from '../../services/hooks/src/db/hooks';
import { api, createProject } from '../support/api';
import { stackInfo } from '../support/stack-info';

// What the system fan-out reads of the hooks table for each event, against the test stack's own
// hooks schema (other files may add system hooks at the same time: only these are checked).
describe('the system hooks a system event goes to', () => {
  let sql: Sql;

  beforeAll(() => {
    sql = createSql({ url: stackInfo().databaseUrl, schema: 'hooks', max: 2 });
  });

  afterAll(() => sql.end());

  it('every system hook by id, in id order, and no project hook', async () => {
    const project = await createProject();
    const projectHook = (
      await api('POST', `/projects/${project.id}/hooks`, { body: { url: 'http://127.0.0.1:9/project' } })
    ).body;
    const added = [];
    for (const path of ['first', 'second'])
      added.push((await api('POST', '/hooks', { body: { url: `http://127.0.0.1:9/${path}` } })).body);
    try {
      const hooks = await allSystemHookIds(sql);
      expect(hooks.every((hook) => Object.keys(hook).join() === 'id')).toBe(true);
      const ids = hooks.map((hook) => hook.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(ids).toEqual(expect.arrayContaining(added.map((hook) => hook.id)));
      expect(ids).not.toContain(projectHook.id);
    } finally {
      for (const hook of added) await api('DELETE', `/hooks/${hook.id}`);
    }
  });
});
