import type { Principal, Sql } from '@hub/common';
import { errorCode, membershipStandIn, privateProject, userPrincipal, type ConnectionPage } from '@hub/common/testing';
import { readingHooksSubgraph } from './testing/hooks-subgraph';

// The hooks subgraph's lists as connections: project hooks, system hooks and the delivery logs of
// both page with cursors (first/after, last/before) in v3's order, also while rows come and go,
// and still by page number (page/perPage) for the facade.

const OWNER = 1;
const MASTER = 2;
const DEVELOPER = 3;
const ADMIN = 9;
const membership = membershipStandIn([privateProject(10, OWNER), privateProject(11, OWNER)], {
  [MASTER]: 40,
  [DEVELOPER]: 30,
});
const admin = userPrincipal(ADMIN, { isAdmin: true });

const CONNECTION = `count edges { cursor node { id } } nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`;
/** A selection of hooks or deliveries, whose `id` is a global id: their numbers under the name the checks read. */
const numbered = (selection: string) => selection.replace(/\{ id \}/g, '{ id: databaseId }');
const ARGS_DEFS = `$first: Int, $after: String, $last: Int, $before: String, $page: Int, $perPage: Int`;
const ARGS = `first: $first, after: $after, last: $last, before: $before, page: $page, perPage: $perPage`;

describe('hooks subgraph: lists as connections', () => {
  const { db, subgraph, start, stop } = readingHooksSubgraph(membership);
  /** The project hook and the system hook whose delivery logs are paged. */
  let projectHook: number;
  let systemHook: number;
  let made = 0;

  beforeAll(async () => {
    await start();
    await db.sql`insert into hooks (project_id, url, signing_secret)
      select case when g % 5 = 0 then 11 else 10 end, 'https://example.com/' || g, 'whsec_x' from generate_series(1, 50) as g`;
    await db.sql`insert into hooks (kind, project_id, url, signing_secret)
      select 'system', null, 'https://example.com/system/' || g, 'whsec_x' from generate_series(1, 30) as g`;
    [{ id: projectHook }] = await db.sql<{ id: number }[]>`select min(id) as id from hooks where project_id = 10`;
    [{ id: systemHook }] = await db.sql<{ id: number }[]>`select min(id) as id from hooks where kind = 'system'`;
    // Deliveries of both hooks interleaved, and some of another hook, so each log has gaps in its ids.
    await db.sql`insert into deliveries (hook_id, event_key, event_name, webhook_id, payload)
      select case g % 3 when 0 then ${projectHook}::int when 1 then ${systemHook}::int else ${projectHook + 1}::int end,
        'test:' || g, 'Push Hook', 'msg_' || g, '{}' from generate_series(1, 150) as g`;
  });
  afterAll(stop);

  /** One list: how to ask for a page of it, who may, and how rows of it are made and removed. */
  interface List {
    name: string;
    principal: Principal;
    /** The list's ids in v3's order, read from the table. */
    ids: () => Promise<number[]>;
    ask: (variables: Record<string, unknown>, selection?: string) => Promise<{ data?: any; errors?: readonly any[] }>;
    pick: (data: any) => any;
    insert: () => Promise<unknown>;
    /** Removes a row of the list (not the hooks whose logs are paged); its id. */
    remove: () => Promise<number | undefined>;
  }

  const run = (query: string, variables: Record<string, unknown>, principal: Principal) =>
    subgraph.run(query, variables, principal);
  const project = (selection: string) =>
    `query(${ARGS_DEFS}, $p: Int!${selection.includes('$h') ? ', $h: Int!' : ''}) { _entities(representations: [{ __typename: "Project", databaseId: $p }]) { ... on Project { ${selection} } } }`;
  const removeOne = async (condition: ReturnType<Sql>, table: 'hooks' | 'deliveries') => {
    const [gone] = await db.sql<{ id: number }[]>`
      delete from ${db.sql(table)} where id = (select id from ${db.sql(table)} where ${condition} order by random() limit 1) returning id`;
    return gone && Number(gone.id);
  };

  const lists: List[] = [
    {
      name: "a project's hooks",
      principal: userPrincipal(MASTER),
      ids: async () =>
        (await db.sql<{ id: number }[]>`select id from hooks where project_id = 10 order by id`).map((r) => r.id),
      ask: (variables, selection = CONNECTION) =>
        run(project(`hooks(${ARGS}) { ${numbered(selection)} }`), { p: 10, ...variables }, userPrincipal(MASTER)),
      pick: (data) => data?._entities?.[0]?.hooks,
      insert: () =>
        db.sql`insert into hooks (project_id, url, signing_secret) values (10, ${`https://new/${++made}`}, 'whsec_x')`,
      remove: () =>
        removeOne(db.sql`project_id = 10 and id not in (${projectHook}, ${projectHook + 1})` as never, 'hooks'),
    },
    {
      name: "a project hook's deliveries",
      principal: userPrincipal(MASTER),
      ids: async () =>
        (await db.sql<{ id: string }[]>`select id from deliveries where hook_id = ${projectHook} order by id desc`).map(
          (r) => Number(r.id),
        ),
      ask: (variables, selection = CONNECTION) =>
        run(
          project(`hook(id: $h) { deliveries(${ARGS}) { ${numbered(selection)} } }`),
          { p: 10, h: projectHook, ...variables },
          userPrincipal(MASTER),
        ),
      pick: (data) => data?._entities?.[0]?.hook?.deliveries,
      insert: () => db.sql`insert into deliveries (hook_id, event_key, event_name, webhook_id, payload)
        values (${projectHook}, ${`new:${++made}`}, 'Push Hook', ${`msg_new_${made}`}, '{}')`,
      remove: () => removeOne(db.sql`hook_id = ${projectHook}` as never, 'deliveries'),
    },
    {
      name: 'the system hooks',
      principal: admin,
      ids: async () =>
        (await db.sql<{ id: number }[]>`select id from hooks where kind = 'system' order by id`).map((r) => r.id),
      ask: (variables, selection = CONNECTION) =>
        run(`query(${ARGS_DEFS}) { systemHooks(${ARGS}) { ${numbered(selection)} } }`, variables, admin),
      pick: (data) => data?.systemHooks,
      insert: () =>
        db.sql`insert into hooks (kind, url, signing_secret) values ('system', ${`https://new/${++made}`}, 'whsec_x')`,
      remove: () => removeOne(db.sql`kind = 'system' and id <> ${systemHook}` as never, 'hooks'),
    },
    {
      name: "a system hook's deliveries",
      principal: admin,
      ids: async () =>
        (await db.sql<{ id: string }[]>`select id from deliveries where hook_id = ${systemHook} order by id desc`).map(
          (r) => Number(r.id),
        ),
      ask: (variables, selection = CONNECTION) =>
        run(
          `query(${ARGS_DEFS}, $h: Int!) { systemHook(id: $h) { deliveries(${ARGS}) { ${numbered(selection)} } } }`,
          { h: systemHook, ...variables },
          admin,
        ),
      pick: (data) => data?.systemHook?.deliveries,
      insert: () => db.sql`insert into deliveries (hook_id, event_key, event_name, webhook_id, payload)
        values (${systemHook}, ${`new:${++made}`}, 'System Hook', ${`msg_new_${made}`}, '{}')`,
      remove: () => removeOne(db.sql`hook_id = ${systemHook}` as never, 'deliveries'),
    },
  ];

  const page = async (list: List, variables: Record<string, unknown>): Promise<ConnectionPage> => {
    const answer = await list.ask(variables);
    expect(answer.errors).toBeUndefined();
    return list.pick(answer.data);
  };

  /** Every page from one end, 7 at a time, with a row made and one removed between pages when `churn`; ids in list order. */
  async function pageThrough(list: List, way: 'forward' | 'backward', churn: boolean) {
    const pages: number[][] = [];
    const deleted = new Set<number>();
    let cursor: string | null = null;
    for (let i = 0; i < 100; i++) {
      const current: ConnectionPage = await page(
        list,
        way === 'forward' ? { first: 7, after: cursor } : { last: 7, before: cursor },
      );
      expect(current.edges.map((edge) => edge.node.id)).toEqual(current.nodes.map((node) => node.id));
      // The side the caller came from has rows exactly when it came from a cursor.
      expect(way === 'forward' ? current.pageInfo.hasPreviousPage : current.pageInfo.hasNextPage).toBe(cursor !== null);
      pages.push(current.nodes.map((node) => node.id));
      const more = way === 'forward' ? current.pageInfo.hasNextPage : current.pageInfo.hasPreviousPage;
      if (!more) break;
      cursor = way === 'forward' ? current.pageInfo.endCursor : current.pageInfo.startCursor;
      if (churn) {
        await list.insert();
        const gone = await list.remove();
        if (gone !== undefined) deleted.add(gone);
      }
    }
    const seen = (way === 'forward' ? pages : [...pages].reverse()).flat();
    return { seen, deleted };
  }

  describe.each(lists.map((list) => [list.name, list] as const))('%s', (_name, list) => {
    it('pages forward and backward through the whole list in v3’s order, with its count', async () => {
      const ids = await list.ids();
      expect(ids.length).toBeGreaterThan(14);
      expect((await pageThrough(list, 'forward', false)).seen).toEqual(ids);
      expect((await pageThrough(list, 'backward', false)).seen).toEqual(ids);
      expect((await page(list, { first: 3 })).count).toBe(ids.length);
      const last = await page(list, { last: 3 });
      expect(last.nodes.map((node) => node.id)).toEqual(ids.slice(-3));
      expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      // Without first and last, 20 a page.
      expect((await page(list, {})).nodes.map((node) => node.id)).toEqual(ids.slice(0, 20));
    });

    it.each(['forward', 'backward'] as const)(
      'pages %s while rows are made and removed: none twice, none that stayed skipped, in order',
      async (way) => {
        const before = await list.ids();
        const { seen, deleted } = await pageThrough(list, way, true);
        expect(deleted.size).toBeGreaterThan(0);
        expect(seen.length).toBe(new Set(seen).size);
        expect(before.filter((id) => !deleted.has(id) && !seen.includes(id))).toEqual([]);
        // Still in the list's order: a subsequence of the list as it is now plus the rows deleted.
        const now = await list.ids();
        const positions = seen.filter((id) => !deleted.has(id)).map((id) => now.indexOf(id));
        expect(positions.every((position, i) => position >= 0 && (i === 0 || position > positions[i - 1]))).toBe(true);
      },
    );

    it('still gives v3’s page by number (page/perPage), with the total', async () => {
      const ids = await list.ids();
      const answer = await list.ask({ page: 2, perPage: 7 }, 'total nodes { id }');
      expect(answer.errors).toBeUndefined();
      expect(list.pick(answer.data)).toEqual({
        total: ids.length,
        nodes: ids.slice(7, 14).map((id) => ({ id })),
      });
      const first = list.pick((await list.ask({ page: 1 }, 'total nodes { id }')).data);
      expect(first.nodes.map((node: { id: number }) => node.id)).toEqual(ids.slice(0, 20));
    });

    it('refuses more than 100 a page, and a tampered cursor, naming the argument', async () => {
      const refusal = async (variables: Record<string, unknown>, argument: string, message: RegExp) => {
        const answer = await list.ask(variables);
        expect(answer.errors?.[0]).toMatchObject({
          message: expect.stringMatching(message),
          extensions: { code: 'BAD_USER_INPUT', argument },
        });
      };
      await refusal({ first: 101 }, 'first', /"first" must be between 0 and 100, got 101/);
      await refusal({ last: 101 }, 'last', /"last" must be between 0 and 100, got 101/);
      const cursor = (await page(list, { first: 2 })).pageInfo.endCursor!;
      const [payload, signature] = cursor.split('.');
      const forged = Buffer.from(
        Buffer.from(payload, 'base64url')
          .toString()
          .replace(/"\d+"\]\]$/, '"1"]]'),
      ).toString('base64url');
      expect(forged).not.toBe(payload);
      await refusal({ first: 2, after: `${forged}.${signature}` }, 'after', /"after" is not a cursor of this list/);
      await refusal({ last: 2, before: 'not-a-cursor' }, 'before', /"before" is not a cursor of this list/);
    });
  });

  it("refuses another list's cursor: another project's hooks, another hook's log, another kind of list", async () => {
    const [projectHooks, projectDeliveries, systemHooks, systemDeliveries] = lists;
    const endOf = async (list: List) => (await page(list, { first: 2 })).pageInfo.endCursor!;
    const refused = async (answer: { errors?: readonly any[] }, argument: string) =>
      expect(answer.errors?.[0]).toMatchObject({
        message: expect.stringMatching(new RegExp(`"${argument}" is not a cursor of this list`)),
        extensions: { code: 'BAD_USER_INPUT', argument },
      });
    const hooksCursor = await endOf(projectHooks);
    // Project 11's hooks, with project 10's cursor.
    await refused(
      await run(
        project(`hooks(${ARGS}) { ${CONNECTION} }`),
        { p: 11, first: 2, after: hooksCursor },
        userPrincipal(MASTER),
      ),
      'after',
    );
    // Another hook's delivery log.
    await refused(
      await run(
        project(`hook(id: $h) { deliveries(${ARGS}) { ${CONNECTION} } }`),
        { p: 10, h: projectHook + 1, first: 2, after: await endOf(projectDeliveries) },
        userPrincipal(MASTER),
      ),
      'after',
    );
    await refused(await systemDeliveries.ask({ last: 2, before: await endOf(projectDeliveries) }), 'before');
    await refused(await systemHooks.ask({ first: 2, after: hooksCursor }), 'after');
    await refused(await projectHooks.ask({ first: 2, after: await endOf(systemHooks) }), 'after');
  });

  it('checks the caller before the arguments', async () => {
    const [projectHooks, , systemHooks] = lists;
    const asDeveloper = await run(
      project(`hooks(${ARGS}) { ${CONNECTION} }`),
      { p: 10, first: 101 },
      userPrincipal(DEVELOPER),
    );
    expect(errorCode(asDeveloper)).toBe('FORBIDDEN');
    const notAdmin = await run(
      `query(${ARGS_DEFS}) { systemHooks(${ARGS}) { count } }`,
      { first: 101 },
      userPrincipal(OWNER),
    );
    expect(errorCode(notAdmin)).toBe('FORBIDDEN');
    expect(errorCode(await projectHooks.ask({ first: 101 }))).toBe('BAD_USER_INPUT');
    expect(errorCode(await systemHooks.ask({ first: 101 }))).toBe('BAD_USER_INPUT');
  });
});
