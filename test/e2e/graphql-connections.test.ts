import { api, createProject, createUser, graphql, type TestUser } from '../support/api';

// The public schema's lists as an internal team's client pages through them: cursors, not page
// numbers, so a page stays true while projects are created and deleted in between.

const PAGE = `
  query ($first: Int, $after: String, $last: Int, $before: String, $orderBy: ProjectOrder, $sort: SortDirection) {
    projects(scope: OWNED, first: $first, after: $after, last: $last, before: $before, orderBy: $orderBy, sort: $sort) {
      count
      edges { cursor node { id: databaseId name } }
      nodes { id: databaseId }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }`;

interface Page {
  count: number;
  edges: Array<{ cursor: string; node: { id: number; name: string } }>;
  nodes: Array<{ id: number }>;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

async function page(token: string, variables: Record<string, unknown>): Promise<Page> {
  const answer = await graphql<{ projects: Page }>(PAGE, variables, { 'PRIVATE-TOKEN': token });
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data!.projects;
}

describe('cursor pages of the public schema', () => {
  let owner: TestUser;
  let ids: number[];
  beforeAll(async () => {
    owner = await createUser();
    ids = [];
    for (let i = 0; i < 250; i += 25)
      ids.push(
        ...(
          await Promise.all(
            Array.from({ length: 25 }, (_, j) =>
              createProject(owner.token, { name: `paged-${String(i + j).padStart(3, '0')}` }),
            ),
          )
        ).map((project) => project.id),
      );
  }, 120_000);

  it.each([
    ['newest first, forward', { orderBy: 'CREATED_AT', sort: 'DESC' }, 'forward'],
    ['by name, forward', { orderBy: 'NAME', sort: 'ASC' }, 'forward'],
    ['by name, backward', { orderBy: 'NAME', sort: 'ASC' }, 'backward'],
  ] as const)(
    'pages through 250 projects %s while 20 are created and 20 deleted: none twice, none that stayed skipped',
    async (_name, order, way) => {
      const before = new Set(ids);
      const seen: number[] = [];
      const deleted = new Set<number>();
      let cursor: string | null = null;
      let made = 0;
      for (let pages = 0; pages < 30; pages++) {
        const current: Page = await page(owner.token, {
          ...order,
          ...(way === 'forward' ? { first: 20, after: cursor } : { last: 20, before: cursor }),
        });
        expect(current.nodes.map((n) => n.id)).toEqual(current.edges.map((e) => e.node.id));
        seen.push(...(way === 'forward' ? current.nodes : [...current.nodes].reverse()).map((n) => n.id));
        const more = way === 'forward' ? current.pageInfo.hasNextPage : current.pageInfo.hasPreviousPage;
        if (!more) break;
        cursor = way === 'forward' ? current.pageInfo.endCursor : current.pageInfo.startCursor;
        if (made < 20) {
          // Two new projects, and two deletions: one already seen, one not yet.
          for (let i = 0; i < 2; i++)
            ids.push((await createProject(owner.token, { name: `churn-${made++}-${order.orderBy}-${way}` })).id);
          const unseen = ids.filter((id) => !seen.includes(id) && !deleted.has(id) && before.has(id));
          const gone = [seen.find((id) => !deleted.has(id))!, unseen[Math.floor(unseen.length / 2)]];
          for (const id of gone.filter((id) => id !== undefined)) {
            expect((await api('DELETE', `/projects/${id}`, { token: owner.token })).status).toBe(200);
            deleted.add(id);
          }
        }
      }
      expect(made).toBe(20);
      expect(seen.length).toBe(new Set(seen).size);
      const skipped = [...before].filter((id) => !deleted.has(id) && !seen.includes(id));
      expect(skipped).toEqual([]);
      ids = ids.filter((id) => !deleted.has(id));
    },
    120_000,
  );

  it('counts the whole list, and pages the same both ways when nothing changes', async () => {
    const forward: number[] = [];
    let after: string | null = null;
    for (;;) {
      const current: Page = await page(owner.token, { first: 100, after, orderBy: 'ID', sort: 'ASC' });
      expect(current.count).toBe(ids.length);
      forward.push(...current.nodes.map((n) => n.id));
      if (!current.pageInfo.hasNextPage) break;
      after = current.pageInfo.endCursor;
    }
    expect(forward).toEqual([...ids].sort((a, b) => a - b));
    const last = await page(owner.token, { last: 3, orderBy: 'ID', sort: 'ASC' });
    expect(last.nodes.map((n) => n.id)).toEqual(forward.slice(-3));
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it('refuses more than 100 a page, and a malformed, tampered or foreign cursor, naming the argument', async () => {
    const ask = (variables: Record<string, unknown>) => graphql(PAGE, variables, { 'PRIVATE-TOKEN': owner.token });
    const refusal = async (variables: Record<string, unknown>, argument: string, message: RegExp) => {
      const answer = await ask(variables);
      expect(answer.body.errors?.[0]).toMatchObject({
        message: expect.stringMatching(message),
        extensions: { code: 'BAD_USER_INPUT', argument },
      });
      expect(answer.body.data?.projects ?? null).toBeNull();
    };
    await refusal({ first: 101 }, 'first', /"first" must be between 0 and 100, got 101/);
    await refusal({ last: -1 }, 'last', /"last" must be between 0 and 100/);
    const byName = await page(owner.token, { first: 2, orderBy: 'NAME', sort: 'ASC' });
    const cursor = byName.pageInfo.endCursor!;
    await refusal({ first: 2, after: 'not-a-cursor' }, 'after', /"after" is not a cursor of this list/);
    const [payload, signature] = cursor.split('.');
    const forged = Buffer.from(
      Buffer.from(payload, 'base64url')
        .toString()
        .replace(/"\d+"\]\]$/, '"1"]]'),
    ).toString('base64url');
    await refusal({ first: 2, after: `${forged}.${signature}` }, 'after', /not a cursor of this list/);
    // A cursor of another order names no place in this one.
    await refusal({ first: 2, before: cursor, orderBy: 'CREATED_AT' }, 'before', /not a cursor of this list/);
  });

  it('never shows another caller’s rows: a stranger paging with the owner’s cursor sees only their own list', async () => {
    const stranger = await createUser();
    const theirs = await createProject(stranger.token, { name: 'zzz-mine' });
    const ownerPage = await page(owner.token, { first: 1, orderBy: 'NAME', sort: 'ASC' });
    const strangers = await page(stranger.token, { first: 100, after: null, orderBy: 'NAME', sort: 'ASC' });
    expect(strangers.nodes.map((n) => n.id)).toEqual([theirs.id]);
    const withOwnersCursor = await page(stranger.token, {
      first: 100,
      after: ownerPage.pageInfo.endCursor,
      orderBy: 'NAME',
      sort: 'ASC',
    });
    expect(withOwnersCursor.nodes.map((n) => n.id)).toEqual([theirs.id]);
  });
});

describe('cursor pages of a project’s issues', () => {
  const ISSUES = `
    query ($id: Int!, $first: Int, $after: String, $orderBy: IssueOrder) {
      project(id: $id) {
        issues(first: $first, after: $after, orderBy: $orderBy) {
          count
          nodes { id: databaseId iid }
          pageInfo { hasNextPage hasPreviousPage endCursor }
        }
      }
    }`;

  it('pages through 60 issues while issues are opened and changed: none twice, none skipped', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const open = async (title: string) =>
      (await api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title } })).body.id as number;
    const before: number[] = [];
    for (let i = 0; i < 60; i += 10)
      before.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => open(`issue ${i + j}`)))));
    for (const orderBy of ['CREATED_AT', 'UPDATED_AT']) {
      const seen: number[] = [];
      const touched = new Set<number>();
      let after: string | null = null;
      for (let pages = 0; pages < 20; pages++) {
        const answer: { body: { data?: any; errors?: any[] } } = await graphql(
          ISSUES,
          { id: project.id, first: 7, after, orderBy },
          { 'PRIVATE-TOKEN': owner.token },
        );
        expect(answer.body.errors).toBeUndefined();
        const issues: { nodes: Array<{ id: number }>; pageInfo: Page['pageInfo'] } = answer.body.data.project.issues;
        seen.push(...issues.nodes.map((n: { id: number }) => n.id));
        expect(issues.pageInfo.hasPreviousPage).toBe(after !== null);
        if (!issues.pageInfo.hasNextPage) break;
        after = issues.pageInfo.endCursor;
        // A new issue, and a change to one not seen yet (by UPDATED_AT it moves to the front).
        // v3 issues are never deleted (DELETE answers 405); deletions are the projects' test above.
        await open(`late ${orderBy} ${pages}`);
        const unseen = before.filter((id) => !seen.includes(id));
        const changed = await api('PUT', `/projects/${project.id}/issues/${unseen[0]}`, {
          token: owner.token,
          body: { state_event: 'close' },
        });
        expect(changed.status).toBe(200);
        touched.add(unseen[0]);
      }
      expect(seen.length).toBe(new Set(seen).size);
      // By creation, every issue shows. By update, an issue changed before the cursor reached it
      // moves to the front, behind the cursor: it is the one case a keyset page rightly skips.
      const missed = before.filter((id) => !seen.includes(id));
      expect(missed.filter((id) => orderBy === 'CREATED_AT' || !touched.has(id))).toEqual([]);
    }
  }, 120_000);
});
