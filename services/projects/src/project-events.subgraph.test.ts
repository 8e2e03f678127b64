import { createAccessClient, createCursors, type InternalClient } from '@hub/common';
import {
  testSubgraph,
  type ConnectionPage,
  errorCode,
  membershipStandIn,
  privateProject,
  userPrincipal,
} from '@hub/common/testing';
import { createLoaders, type ProjectsContext } from './context';
import type { NodeLookup } from './node-lookup';
import type { ProjectsService } from './projects-service';
import { createResolvers } from './resolvers';

// A project's activity feed as a connection: it pages with cursors (first/after, last/before) in
// v3's order, newest first, also while events are recorded and removed, and still by page number
// (page/perPage) for the facade.

const OWNER = 1;
const STRANGER = 2;
const owner = userPrincipal(OWNER);

// An event's `id` is its global id: the checks read its number, under the name they use.
const CONNECTION = `count edges { cursor node { id: databaseId } } nodes { id: databaseId } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`;
const EVENTS = (selection: string) => `
  query($p: Int!, $first: Int, $after: String, $last: Int, $before: String, $page: Int, $perPage: Int) {
    _entities(representations: [{ __typename: "Project", databaseId: $p }]) {
      ... on Project { events(first: $first, after: $after, last: $last, before: $before, page: $page, perPage: $perPage) { ${selection} } }
    }
  }`;

describe('projects subgraph: a project’s events as a connection', () => {
  const { db, subgraph, start, stop } = testSubgraph<ProjectsContext>({
    service: 'projects',
    srcDir: __dirname,
    build: (sql) => {
      const access = createAccessClient({
        membership: membershipStandIn([privateProject(1, OWNER), privateProject(2, OWNER)], {}),
        ttlMs: 0,
      });
      // Reading a feed asks neither identity, membership's other endpoints nor other subgraphs.
      const projects = {} as ProjectsService;
      return {
        resolvers: createResolvers({
          sql,
          projects,
          membership: {} as InternalClient,
          externalUrl: 'http://hub.test',
          cursors: createCursors('a-secret-for-tests-only-0123456789'),
        }),
        createContext: (principal) => ({
          principal,
          loaders: createLoaders(sql, access, projects, {} as NodeLookup, principal),
        }),
      };
    },
  });
  let made = 0;

  beforeAll(async () => {
    await start();
    const { sql } = db;
    for (const id of [1, 2])
      await sql`insert into projects (id, namespace_id, namespace_path, namespace_name, owner_id, creator_id, name, path)
        values (${id}, ${id}, 'ns', 'ns', ${OWNER}, ${OWNER}, ${'p' + id}, ${'p' + id})`;
    // The two feeds interleaved, so each has gaps in its ids; many events share a created_at.
    await sql`insert into project_events (project_id, action_name, author_id, author_username)
      select 1 + (g % 3 = 0)::int, 'pushed to', ${OWNER}, 'owner' from generate_series(1, 120) as g`;
  });
  afterAll(stop);

  /** Project 1's event ids in v3's order: newest (largest id) first. */
  const ids = async (project = 1) =>
    (await db.sql<{ id: string }[]>`select id from project_events where project_id = ${project} order by id desc`).map(
      (row) => Number(row.id),
    );
  const ask = (variables: Record<string, unknown>, selection = CONNECTION, principal = owner) =>
    subgraph.run(EVENTS(selection), { p: 1, ...variables }, principal);
  const page = async (variables: Record<string, unknown>): Promise<ConnectionPage> => {
    const answer = await ask(variables);
    expect(answer.errors).toBeUndefined();
    return answer.data._entities[0].events;
  };

  /** Every page from one end, 7 at a time, recording an event and removing one between pages when `churn`; ids in feed order. */
  async function pageThrough(way: 'forward' | 'backward', churn: boolean) {
    const pages: number[][] = [];
    const deleted = new Set<number>();
    let cursor: string | null = null;
    for (let i = 0; i < 100; i++) {
      const current: ConnectionPage = await page(
        way === 'forward' ? { first: 7, after: cursor } : { last: 7, before: cursor },
      );
      expect(current.edges.map((edge) => edge.node.id)).toEqual(current.nodes.map((node) => node.id));
      expect(way === 'forward' ? current.pageInfo.hasPreviousPage : current.pageInfo.hasNextPage).toBe(cursor !== null);
      pages.push(current.nodes.map((node) => node.id));
      const more = way === 'forward' ? current.pageInfo.hasNextPage : current.pageInfo.hasPreviousPage;
      if (!more) break;
      cursor = way === 'forward' ? current.pageInfo.endCursor : current.pageInfo.startCursor;
      if (churn) {
        await db.sql`insert into project_events (project_id, action_name, author_id, author_username)
          values (1, ${`new ${++made}`}, ${OWNER}, 'owner')`;
        const [gone] = await db.sql<{ id: string }[]>`delete from project_events
          where id = (select id from project_events where project_id = 1 order by random() limit 1) returning id`;
        if (gone) deleted.add(Number(gone.id));
      }
    }
    return { seen: (way === 'forward' ? pages : [...pages].reverse()).flat(), deleted };
  }

  it('pages forward and backward through the whole feed, newest first, with its count', async () => {
    const all = await ids();
    expect(all.length).toBeGreaterThan(14);
    expect((await pageThrough('forward', false)).seen).toEqual(all);
    expect((await pageThrough('backward', false)).seen).toEqual(all);
    expect((await page({ first: 3 })).count).toBe(all.length);
    const last = await page({ last: 3 });
    expect(last.nodes.map((node) => node.id)).toEqual(all.slice(-3));
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    // Without first and last, 20 a page.
    expect((await page({})).nodes.map((node) => node.id)).toEqual(all.slice(0, 20));
  });

  it.each(['forward', 'backward'] as const)(
    'pages %s while events are recorded and removed: none twice, none that stayed skipped, in order',
    async (way) => {
      const before = await ids();
      const { seen, deleted } = await pageThrough(way, true);
      expect(deleted.size).toBeGreaterThan(0);
      expect(seen.length).toBe(new Set(seen).size);
      expect(before.filter((id) => !deleted.has(id) && !seen.includes(id))).toEqual([]);
      const now = await ids();
      const positions = seen.filter((id) => !deleted.has(id)).map((id) => now.indexOf(id));
      expect(positions.every((position, i) => position >= 0 && (i === 0 || position > positions[i - 1]))).toBe(true);
    },
  );

  it('still gives v3’s page by number (page/perPage), with the total', async () => {
    const all = await ids();
    const answer = await ask({ page: 2, perPage: 7 }, 'total nodes { id: databaseId }');
    expect(answer.errors).toBeUndefined();
    expect(answer.data._entities[0].events).toEqual({
      total: all.length,
      nodes: all.slice(7, 14).map((id) => ({ id })),
    });
    const first = await ask({ page: 1 }, 'total nodes { id: databaseId }');
    expect(first.data._entities[0].events.nodes.map((node: { id: number }) => node.id)).toEqual(all.slice(0, 20));
  });

  it('refuses more than 100 a page, a tampered cursor and another feed’s cursor, naming the argument', async () => {
    const refusal = async (variables: Record<string, unknown>, argument: string, message: RegExp) => {
      const answer = await ask(variables);
      expect(answer.errors?.[0]).toMatchObject({
        message: expect.stringMatching(message),
        extensions: { code: 'BAD_USER_INPUT', argument },
      });
    };
    await refusal({ first: 101 }, 'first', /"first" must be between 0 and 100, got 101/);
    await refusal({ last: 101 }, 'last', /"last" must be between 0 and 100, got 101/);
    const cursor = (await page({ first: 2 })).pageInfo.endCursor!;
    const [payload, signature] = cursor.split('.');
    const forged = Buffer.from(
      Buffer.from(payload, 'base64url')
        .toString()
        .replace(/"\d+"\]\]$/, '"1"]]'),
    ).toString('base64url');
    expect(forged).not.toBe(payload);
    await refusal({ first: 2, after: `${forged}.${signature}` }, 'after', /"after" is not a cursor of this list/);
    await refusal({ last: 2, before: 'not-a-cursor' }, 'before', /"before" is not a cursor of this list/);
    const otherFeed = await subgraph.run(EVENTS(CONNECTION), { p: 2, first: 2 }, owner);
    const otherCursor = otherFeed.data._entities[0].events.pageInfo.endCursor;
    await refusal({ first: 2, after: otherCursor }, 'after', /"after" is not a cursor of this list/);
  });

  it('shows no feed of a project the caller may not see', async () => {
    const answer = await ask({ first: 2 }, CONNECTION, userPrincipal(STRANGER));
    expect(errorCode(answer)).toBeNull();
    expect(answer.data._entities).toEqual([null]);
  });

  describe('node(id:): an event by its global id, under the feed’s rule', () => {
    const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on ProjectEvent { databaseId projectId actionName } } }`;
    const NODES = `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`;
    const node = async (id: string, principal = owner) => {
      const answer = await subgraph.run(NODE, { id }, principal);
      expect(answer.errors).toBeUndefined();
      return answer.data.node;
    };

    it('refetches an event the feed shows by the global id it shows, for whoever may see the project', async () => {
      const [newest] = (await ask({ first: 1 }, 'nodes { id databaseId projectId actionName }')).data._entities[0]
        .events.nodes;
      expect(newest.id).toBe(`gid://hub/ProjectEvent/${newest.databaseId}`);
      expect(await node(newest.id)).toEqual({ __typename: 'ProjectEvent', ...newest });
      // One of the other project's, in one batch with project 1's.
      const [other] = await ids(2);
      const answer = await subgraph.run(NODES, { ids: [newest.id, `gid://hub/ProjectEvent/${other}`] }, owner);
      expect(answer.data.nodes).toEqual([{ id: newest.id }, { id: `gid://hub/ProjectEvent/${other}` }]);
    });

    it('answers null to a stranger on the private project, as for an event that does not exist', async () => {
      const [newest] = await ids();
      expect(await node(`gid://hub/ProjectEvent/${newest}`, userPrincipal(STRANGER))).toBeNull();
      const [last] = await db.sql<{ max: string }[]>`select max(id) as max from project_events`;
      expect(await node(`gid://hub/ProjectEvent/${Number(last!.max) + 1_000_000}`)).toBeNull();
      // Past 32 bits and up to 2^53, where the bigserial will go: none yet, and no error.
      expect(await node(`gid://hub/ProjectEvent/${Number.MAX_SAFE_INTEGER}`)).toBeNull();
    });
  });
});
