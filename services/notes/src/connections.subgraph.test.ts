import { type InternalClient, type Sql } from '@hub/common';
import { membershipStandIn, unusedClient, privateProject, userPrincipal } from '@hub/common/testing';
import { notesTestSubgraph } from './testing/notes-subgraph';

// The lists of notes, snippets, labels and milestones as connections: cursor pages (the public
// schema's first/after, last/before) that stay true while rows come and go, and v3's pages by
// number (the facade's page/perPage) as they were.

const OWNER = 1;
const PROJECT = 40;
/** Snippets off: its snippet list is empty, its arguments checked all the same. */
const NO_SNIPPETS = 41;
const MERGE_REQUEST = 7;
const COMMIT = 'd'.repeat(40);

const membership = membershipStandIn(
  [privateProject(PROJECT, OWNER), privateProject(NO_SNIPPETS, OWNER, { snippetsEnabled: false })],
  {},
);
/** The repository service's answer: the project's one commit, by its full id. */
const repository = {
  call: async (_contract: unknown, { projectId, ref }: { projectId: number; ref: string }) => ({
    commit:
      projectId === PROJECT && ref === COMMIT
        ? { id: COMMIT, message: 'm\n', timestamp: '2026-01-01T00:00:00+00:00', author: { name: 'A', email: 'a@x' } }
        : null,
  }),
  close: async () => {},
} as unknown as InternalClient;

/** The merge requests service's answer: the project's merge request MERGE_REQUEST exists. */
const mergeRequests = {
  call: async (_contract: unknown, { projectId, id }: { projectId: number; id: number }) =>
    projectId === PROJECT && id === MERGE_REQUEST
      ? { found: true, attributes: { id, iid: 1, project_id: PROJECT, title: 'mr', state: 'opened' } }
      : { found: false, attributes: null },
  close: async () => {},
} as unknown as InternalClient;

interface Node {
  key: number;
  name?: string;
}
interface Connection {
  count: number;
  edges: Array<{ cursor: string; node: Node }>;
  nodes: Node[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** Label names whose "C" order (code units) differs from a language's: case, accents, punctuation. */
const LABEL_NAMES = [
  'alpha', 'Alpha', 'beta', 'Beta', 'émile', 'Emile', 'zeta', 'Zeta', '_under', '~tilde', '0zero', '9nine', 'ärger',
  'Ärger', 'ñu', 'Ñu', 'mid', 'MID', 'a b', 'a-b', 'a_b', 'a.b', 'aa', 'AA', 'aA',
]; // prettier-ignore

/** "C" order: UTF-8 bytes, then the id. */
const byNameThenId = (a: Node, b: Node) => Buffer.compare(Buffer.from(a.name!), Buffer.from(b.name!)) || a.key - b.key;
const byIdAsc = (a: Node, b: Node) => a.key - b.key;
const byIdDesc = (a: Node, b: Node) => b.key - a.key;

/** One list under test. */
interface ListCase {
  name: string;
  /** The ordering its cursors belong to: a cursor of another ordering is refused. */
  ordering: string;
  /** The list's field on Project `PROJECT` (or the entity `representation` names), with `args`. */
  field: (args: string) => string;
  representation?: () => Record<string, unknown>;
  /** The list in the answer's entity. */
  pick: (entity: any) => any;
  nodeFields: string;
  compare: (a: Node, b: Node) => number;
  /** The list's rows in v3's order, as the table holds them now. */
  ids: () => Promise<number[]>;
  insert: () => Promise<void>;
  /** Removes one of the list's rows, at random; its id. */
  remove: () => Promise<number | undefined>;
}

describe('notes subgraph: lists as connections', () => {
  const { db, subgraph, start, stop } = notesTestSubgraph({
    membership,
    identity: unusedClient,
    mergeRequests,
    repository,
  });
  const as = userPrincipal(OWNER);
  let issueId: number;
  let snippetId: number;
  let made = 0;
  /** The collation labels.title was given, so the lists must ask for "C" themselves; null when the server has none but C. */
  let labelCollation: string | null = null;

  beforeAll(async () => {
    await start();
    // The test server runs with the C locale, where any order by title is "C" order: a language's
    // collation on the column shows that the lists keep "C" order whatever the database's default.
    const [collation] = await db.sql<{ name: string }[]>`
      select collname as name from pg_collation
      where collname in ('en-x-icu', 'und-x-icu', 'en_US.utf8', 'en_US') order by collname limit 1`;
    if (collation) {
      labelCollation = collation.name;
      await db.sql.unsafe(`alter table labels alter column title type text collate "${collation.name}"`);
    }
    const [issue] = await db.sql<{ id: number }[]>`
      insert into issues (project_id, iid, title, author_id) values (${PROJECT}, 1, 'noted', ${OWNER}) returning id`;
    issueId = issue.id;
    const [snippet] = await db.sql<{ id: number }[]>`
      insert into snippets (project_id, title, file_name, content, author_id)
      values (${PROJECT}, 'noted', 'a.rb', 'x', ${OWNER}) returning id`;
    snippetId = snippet.id;
    await db.sql`
      insert into notes (project_id, noteable_type, noteable_id, commit_id, author_id, body)
      select ${PROJECT}, t.type, t.target, t.commit_id, ${OWNER}, t.type || ' ' || g
      from generate_series(1, 25) as g,
        (values ('Issue', ${issueId}::int, null::text), ('Snippet', ${snippetId}::int, null), ('MergeRequest', ${MERGE_REQUEST}::int, null), ('Commit', null, ${COMMIT}::text)) as t(type, target, commit_id)`;
    await db.sql`
      insert into snippets (project_id, title, file_name, content, author_id)
      select ${PROJECT}, 's' || g, 'a.rb', 'x', ${OWNER} from generate_series(1, 24) as g`;
    await db.sql`
      insert into labels (project_id, title, color) select ${PROJECT}, name, '#428BCA' from unnest(${LABEL_NAMES}::text[]) as name`;
    await db.sql`
      insert into milestones (project_id, iid, title, state)
      select ${PROJECT}, g, 'm' || g, case when g % 3 = 0 then 'closed' else 'active' end from generate_series(1, 40) as g`;
  });
  afterAll(stop);

  const ids = (rows: Array<{ id: number }>) => rows.map((row) => row.id);
  const removeOne = async (table: 'notes' | 'snippets' | 'labels' | 'milestones', where: ReturnType<Sql>) => {
    const [gone] = await db.sql<{ id: number }[]>`
      delete from ${db.sql(table)} where id = (select id from ${db.sql(table)} ${where} order by random() limit 1) returning id`;
    return gone?.id;
  };
  const noteCase = (
    name: string,
    type: 'Issue' | 'Snippet' | 'MergeRequest' | 'Commit',
    target: () => number | null,
    field: ListCase['field'],
    pick: ListCase['pick'],
    representation?: ListCase['representation'],
  ): ListCase => {
    const where = () =>
      (type === 'Commit'
        ? db.sql`where project_id = ${PROJECT} and commit_id = ${COMMIT}`
        : db.sql`where project_id = ${PROJECT} and noteable_type = ${type} and noteable_id = ${target()}`) as ReturnType<Sql>;
    return {
      name,
      ordering: 'notes',
      field,
      pick,
      representation,
      nodeFields: 'key: databaseId',
      compare: byIdAsc,
      ids: async () => ids(await db.sql`select id from notes ${where()} order by id`),
      insert: async () => {
        await db.sql`insert into notes (project_id, noteable_type, noteable_id, commit_id, author_id, body)
          values (${PROJECT}, ${type}, ${target()}, ${type === 'Commit' ? COMMIT : null}, ${OWNER}, ${`new ${++made}`})`;
      },
      remove: () => removeOne('notes', where()),
    };
  };

  const cases: ListCase[] = [
    {
      name: 'Project.labels (by name, "C" order)',
      ordering: 'labels',
      field: (args) => `labels(${args})`,
      pick: (project) => project.labels,
      nodeFields: 'key: databaseId name',
      compare: byNameThenId,
      // v3's query, as before.
      ids: async () =>
        ids(await db.sql`select id from labels where project_id = ${PROJECT} order by title collate "C", id`),
      insert: async () => {
        const name = `${['M', 'm', 'Ä', 'a', '_', 'é'][made % 6]}new ${++made}`;
        await db.sql`insert into labels (project_id, title, color) values (${PROJECT}, ${name}, '#428BCA')`;
      },
      remove: () => removeOne('labels', db.sql`where project_id = ${PROJECT}`),
    },
    {
      name: 'Project.milestones(state: ACTIVE) (newest first)',
      ordering: 'milestones',
      field: (args) => `milestones(state: ACTIVE, ${args})`,
      pick: (project) => project.milestones,
      nodeFields: 'key: databaseId',
      compare: byIdDesc,
      ids: async () =>
        ids(
          await db.sql`select id from milestones where project_id = ${PROJECT} and state = 'active' order by id desc`,
        ),
      insert: async () => {
        const iid = 1000 + ++made;
        // One active milestone and one closed one, which the list leaves out.
        await db.sql`insert into milestones (project_id, iid, title, state)
          values (${PROJECT}, ${iid}, 'new', 'active'), (${PROJECT}, ${iid + 5000}, 'new closed', 'closed')`;
      },
      remove: () => removeOne('milestones', db.sql`where project_id = ${PROJECT} and state = 'active'`),
    },
    {
      name: 'Project.milestones (newest first)',
      ordering: 'milestones',
      field: (args) => `milestones(${args})`,
      pick: (project) => project.milestones,
      nodeFields: 'key: databaseId',
      compare: byIdDesc,
      ids: async () => ids(await db.sql`select id from milestones where project_id = ${PROJECT} order by id desc`),
      insert: async () => {
        await db.sql`insert into milestones (project_id, iid, title) values (${PROJECT}, ${1000 + ++made}, 'new')`;
      },
      remove: () => removeOne('milestones', db.sql`where project_id = ${PROJECT}`),
    },
    {
      name: 'Project.snippets (newest first)',
      ordering: 'snippets',
      field: (args) => `snippets(${args})`,
      pick: (project) => project.snippets,
      nodeFields: 'key: databaseId',
      compare: byIdDesc,
      ids: async () => ids(await db.sql`select id from snippets where project_id = ${PROJECT} order by id desc`),
      insert: async () => {
        await db.sql`insert into snippets (project_id, title, file_name, content, author_id)
          values (${PROJECT}, ${`new ${++made}`}, 'a.rb', 'x', ${OWNER})`;
      },
      // Not the snippet whose notes another list pages through.
      remove: () => removeOne('snippets', db.sql`where project_id = ${PROJECT} and id <> ${snippetId}`),
    },
    noteCase(
      'Issue.notes (oldest first)',
      'Issue',
      () => issueId,
      (args) => `issue(id: ${issueId}) { notes(${args})`,
      (project) => project.issue?.notes ?? null,
    ),
    noteCase(
      'Snippet.notes (oldest first)',
      'Snippet',
      () => snippetId,
      (args) => `snippet(id: ${snippetId}) { notes(${args})`,
      (project) => project.snippet?.notes ?? null,
    ),
    noteCase(
      'Noteable.notes of a merge request (oldest first)',
      'MergeRequest',
      () => MERGE_REQUEST,
      (args) => `noteable(kind: MERGE_REQUEST, id: ${MERGE_REQUEST}) { notes(${args})`,
      (project) => project.noteable?.notes ?? null,
    ),
    noteCase(
      'MergeRequest.notes (oldest first)',
      'MergeRequest',
      () => MERGE_REQUEST,
      (args) => `notes(${args})`,
      (mergeRequest) => mergeRequest.notes,
      () => ({ __typename: 'MergeRequest', databaseId: MERGE_REQUEST, projectId: PROJECT }),
    ),
    noteCase(
      'Project.commitNotes (oldest first)',
      'Commit',
      () => null,
      (args) => `commitNotes(ref: "${COMMIT}", ${args})`,
      (project) => project.commitNotes,
    ),
  ];

  /** One page of a list, as `args` (first/after/last/before or page/perPage) ask; the answer's list or its errors. */
  async function ask(list: ListCase, args: Record<string, unknown>, selection?: string) {
    const fields =
      selection ??
      `count edges { cursor node { ${list.nodeFields} } } nodes { ${list.nodeFields} } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`;
    const field = list.field(
      'first: $first, after: $after, last: $last, before: $before, page: $page, perPage: $perPage',
    );
    // Nested fields (an issue's notes) close their parent's selection.
    const closing = '}'.repeat((field.match(/\{/g) ?? []).length);
    const typename = (list.representation?.().__typename as string) ?? 'Project';
    const query = `query($r: [_Any!]!, $first: Int, $after: String, $last: Int, $before: String, $page: Int, $perPage: Int) {
      _entities(representations: $r) { ... on ${typename} { ${field} { ${fields} } ${closing} } }
    }`;
    const representation = list.representation?.() ?? { __typename: 'Project', databaseId: PROJECT };
    const answer = await subgraph.run(query, { r: [representation], ...args }, as);
    return { list: answer.data?._entities?.[0] ? list.pick(answer.data._entities[0]) : null, errors: answer.errors };
  }

  async function page(list: ListCase, args: Record<string, unknown>): Promise<Connection> {
    const { list: connection, errors } = await ask(list, args);
    expect(errors).toBeUndefined();
    expect(connection.nodes).toEqual(connection.edges.map((edge: { node: Node }) => edge.node));
    return connection;
  }

  /** Every page of the list from one end, `size` a page, running `between` after each page. */
  async function pageThrough(list: ListCase, way: 'forward' | 'backward', size: number, between?: () => Promise<void>) {
    const seen: Node[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 200; pages++) {
      const current: Connection = await page(
        list,
        way === 'forward' ? { first: size, after: cursor } : { last: size, before: cursor },
      );
      expect(current.nodes.length).toBeLessThanOrEqual(size);
      seen.push(...(way === 'forward' ? current.nodes : [...current.nodes].reverse()));
      const more = way === 'forward' ? current.pageInfo.hasNextPage : current.pageInfo.hasPreviousPage;
      if (!more) return way === 'forward' ? seen : seen.reverse();
      cursor = way === 'forward' ? current.pageInfo.endCursor : current.pageInfo.startCursor;
      await between?.();
    }
    throw new Error('more than 200 pages');
  }

  it('gives labels.title a language collation here, whose order is not "C" order, so the label lists must ask for "C"', async () => {
    // A server with no collation but C: the label cases below run in its C order all the same.
    if (labelCollation === null) return;
    const own = ids(await db.sql`select id from labels where project_id = ${PROJECT} order by title, id`);
    const c = ids(await db.sql`select id from labels where project_id = ${PROJECT} order by title collate "C", id`);
    expect(own).not.toEqual(c);
  });

  describe.each(cases.map((list) => [list.name, list] as const))('%s', (_name, list) => {
    it('pages forward with first/after and backward with last/before through the whole list, in order, counting it', async () => {
      const all = await list.ids();
      expect(all.length).toBeGreaterThan(10);
      const forward = await pageThrough(list, 'forward', 4);
      expect(forward.map((node) => node.key)).toEqual(all);
      const backward = await pageThrough(list, 'backward', 3);
      expect(backward.map((node) => node.key)).toEqual(all);
      // Without first or last, a page of 20; first: 0 is an empty page; the count is the whole list's.
      const start = await page(list, {});
      expect(start.nodes.map((node) => node.key)).toEqual(all.slice(0, 20));
      expect(start.count).toBe(all.length);
      expect(start.pageInfo).toMatchObject({ hasNextPage: all.length > 20, hasPreviousPage: false });
      expect((await page(list, { first: 0 })).nodes).toEqual([]);
      const middle = await page(list, { first: 3, after: start.edges[4].cursor });
      expect(middle.nodes.map((node) => node.key)).toEqual(all.slice(5, 8));
      expect(middle.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
      const end = await page(list, { last: 2 });
      expect(end.nodes.map((node) => node.key)).toEqual(all.slice(-2));
      expect(end.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    });

    it.each(['forward', 'backward'] as const)(
      'pages %s while rows are added and deleted between pages: no row twice, none that stayed skipped, all in order',
      async (way) => {
        const before = await list.ids();
        const deleted = new Set<number>();
        const seen = await pageThrough(list, way, 4, async () => {
          await list.insert();
          const gone = await list.remove();
          if (gone !== undefined) deleted.add(gone);
        });
        const keys = seen.map((node) => node.key);
        expect(keys.length).toBe(new Set(keys).size);
        expect(before.filter((id) => !deleted.has(id) && !keys.includes(id))).toEqual([]);
        for (let i = 1; i < seen.length; i++) expect(list.compare(seen[i - 1], seen[i])).toBeLessThan(0);
      },
    );

    it("gives v3's pages by number for page/perPage (the facade's), with the total", async () => {
      const all = await list.ids();
      const { list: second, errors } = await ask(list, { page: 2, perPage: 4 }, `total nodes { ${list.nodeFields} }`);
      expect(errors).toBeUndefined();
      expect({ total: second.total, keys: second.nodes.map((node: Node) => node.key) }).toEqual({
        total: all.length,
        keys: all.slice(4, 8),
      });
      // perPage alone asks for page 1; page alone for pages of 20; past the end, an empty page.
      const { list: first } = await ask(list, { perPage: 3 }, `total nodes { key: __typename }`);
      expect(first.nodes).toHaveLength(3);
      const { list: twenty } = await ask(list, { page: 1 }, `nodes { ${list.nodeFields} }`);
      expect(twenty.nodes.map((node: Node) => node.key)).toEqual(all.slice(0, 20));
      const { list: past } = await ask(list, { page: 1000, perPage: 100 }, `total nodes { ${list.nodeFields} }`);
      expect(past).toEqual({ total: all.length, nodes: [] });
      // Cursors belong to cursor pages only.
      const { errors: noCursors } = await ask(list, { page: 1 }, 'pageInfo { endCursor }');
      expect(noCursors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'page' });
    });

    it("refuses more than 100 a page, a tampered cursor and another list's cursor, naming the argument", async () => {
      const refused = async (args: Record<string, unknown>, argument: string, message: RegExp) => {
        const { list: answer, errors } = await ask(list, args);
        expect(answer).toBeNull();
        expect(errors?.[0]).toMatchObject({
          message: expect.stringMatching(message),
          extensions: { code: 'BAD_USER_INPUT', argument },
        });
      };
      await refused({ first: 101 }, 'first', /"first" must be between 0 and 100, got 101/);
      await refused({ last: 101 }, 'last', /"last" must be between 0 and 100, got 101/);
      await refused({ first: 2, last: 2 }, 'last', /not both/);
      const cursor = (await page(list, { first: 2 })).pageInfo.endCursor!;
      await refused({ first: 2, after: 'not-a-cursor' }, 'after', /"after" is not a cursor of this list/);
      // The payload changed (another place in the list), the signature kept.
      const [payload, signature] = cursor.split('.');
      const decoded = Buffer.from(payload, 'base64url').toString();
      const forged = Buffer.from(decoded.replace(/"(\d+)"\]\]$/, (_m, id) => `"${Number(id) + 1}"]]`)).toString(
        'base64url',
      );
      expect(forged).not.toBe(payload);
      await refused({ first: 2, after: `${forged}.${signature}` }, 'after', /"after" is not a cursor of this list/);
      await refused({ last: 2, before: `${payload}.${signature.slice(1)}x` }, 'before', /not a cursor of this list/);
      // A cursor of a list in another order names no place in this one.
      const other = cases.find((c) => c.ordering !== list.ordering)!;
      const foreign = (await page(other, { first: 1 })).pageInfo.endCursor!;
      await refused({ first: 2, after: foreign }, 'after', /"after" is not a cursor of this list/);
      await refused({ last: 2, before: foreign }, 'before', /"before" is not a cursor of this list/);
    });
  });

  it('answers an empty list for a project with snippets disabled, its arguments checked all the same', async () => {
    const SNIPPETS = `query($first: Int, $page: Int, $perPage: Int) { _entities(representations: [{ __typename: "Project", databaseId: ${NO_SNIPPETS} }]) { ... on Project { snippets(first: $first, page: $page, perPage: $perPage) { count nodes { id: databaseId } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } } }`;
    expect((await subgraph.run(SNIPPETS, {}, as)).data?._entities[0].snippets).toEqual({
      count: 0,
      nodes: [],
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    });
    const byNumber = `query { _entities(representations: [{ __typename: "Project", databaseId: ${NO_SNIPPETS} }]) { ... on Project { snippets(page: 1, perPage: 20) { total nodes { id: databaseId } } } } }`;
    expect((await subgraph.run(byNumber, {}, as)).data?._entities[0].snippets).toEqual({ total: 0, nodes: [] });
    expect((await subgraph.run(SNIPPETS, { first: 101 }, as)).errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      argument: 'first',
    });
  });
});
