import { generateKeyPairSync } from 'node:crypto';
import {
  api,
  createProject,
  createUser,
  eventually,
  graphql,
  stack,
  unique,
  type TestProject,
  type TestUser,
} from '../support/api';
import { commitFiles, git, ok, remoteUrl, workingCopy } from '../support/git';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

// Lookups by the names people use: a user by username, a group by path, an issue or a merge
// request by its project's path and its number there; and by global id, `node(id:)`. A stranger
// asking about a private project's issue gets null, exactly as for one that does not exist.

/** A new ed25519 public key in OpenSSH's one-line form. */
const sshKey = () => {
  const wire = (value: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, value.length]), value]);
  const raw = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url');
  return `ssh-ed25519 ${Buffer.concat([wire(Buffer.from('ssh-ed25519')), wire(raw)]).toString('base64')} e2e@example`;
};

describe('lookups by natural key in the public schema', () => {
  let owner: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let issue: { id: number; iid: number };
  let mergeRequest: { id: number; iid: number };
  beforeAll(async () => {
    [owner, stranger] = await Promise.all([createUser(), createUser()]);
    project = await createProject(owner.token, { snippets_enabled: true });
    const clone = await workingCopy({ 'README.md': 'one\n' });
    const remote = remoteUrl(project.path_with_namespace, owner.username, owner.password);
    ok(await git(clone, 'push', '-q', remote, 'master'));
    ok(await git(clone, 'checkout', '-q', '-b', 'feature'));
    await commitFiles(clone, { 'feature.txt': 'feature\n' }, 'a feature');
    ok(await git(clone, 'push', '-q', remote, 'feature'));
    issue = (await api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'found' } }))
      .body;
    mergeRequest = (
      await api('POST', `/projects/${project.id}/merge_requests`, {
        token: owner.token,
        body: { source_branch: 'feature', target_branch: 'master', title: 'found too' },
      })
    ).body;
  });

  const ask = async (query: string, variables: Record<string, unknown>, token: string) => {
    const answer = await graphql(query, variables, { 'PRIVATE-TOKEN': token });
    expect(answer.body.errors).toBeUndefined();
    return answer.body.data;
  };

  it('finds a user by username, whatever its case, and answers null for none', async () => {
    const query = 'query ($username: String) { user(username: $username) { id: databaseId username } }';
    expect(await ask(query, { username: owner.username.toUpperCase() }, stranger.token)).toEqual({
      user: { id: owner.id, username: owner.username },
    });
    expect(await ask(query, { username: unique('nobody') }, stranger.token)).toEqual({ user: null });
  });

  it('finds a group by its full path', async () => {
    const path = unique('grp');
    const group = await api('POST', '/groups', { token: owner.token, body: { name: path, path } });
    expect(group.status).toBe(201);
    expect(
      await ask(
        'query ($p: String) { group(fullPath: $p) { id: databaseId } }',
        { p: path.toUpperCase() },
        owner.token,
      ),
    ).toEqual({
      group: { id: group.body.id },
    });
  });

  it('finds an issue and a merge request by project path and number, for those who may see the project', async () => {
    const query = `query ($path: String!, $issue: Int!, $mr: Int!) {
      issue(projectPath: $path, iid: $issue) { id: databaseId iid title }
      mergeRequest(projectPath: $path, iid: $mr) { id: databaseId iid title }
    }`;
    const variables = { path: project.path_with_namespace, issue: issue.iid, mr: mergeRequest.iid };
    expect(await ask(query, variables, owner.token)).toEqual({
      issue: { id: issue.id, iid: issue.iid, title: 'found' },
      mergeRequest: { id: mergeRequest.id, iid: mergeRequest.iid, title: 'found too' },
    });
    const none = { issue: null, mergeRequest: null };
    // A stranger and the private project; a number that names nothing; a path that names nothing.
    expect(await ask(query, variables, stranger.token)).toEqual(none);
    expect(await ask(query, { ...variables, issue: 9999, mr: 9999 }, owner.token)).toEqual(none);
    expect(await ask(query, { ...variables, path: `${owner.username}/${unique('none')}` }, stranger.token)).toEqual(
      none,
    );
  });

  describe('node(id:) and nodes(ids:)', () => {
    // A fragment on the interface spreads anywhere a Node is, so one selection serves every kind.
    const NODE_FRAGMENT = `fragment N on Node { __typename id
      ... on Project { databaseId name } ... on Issue { databaseId title } ... on MergeRequest { databaseId title }
      ... on User { databaseId username } ... on Group { databaseId name } ... on Namespace { databaseId path }
      ... on Milestone { databaseId title } ... on Label { databaseId name } ... on Snippet { databaseId title }
      ... on Note { databaseId body } ... on Hook { databaseId url } ... on SshKey { databaseId title }
      ... on SystemHook { databaseId url } ... on ProjectEvent { databaseId actionName }
      ... on HookDelivery { databaseId hookId eventName } }`;
    const NODE_FIELDS = '...N';
    /** Where the project hooks made here send their deliveries. */
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver();
    });
    afterAll(() => receiver.close());
    const everyKind = async () => {
      const path = unique('grp');
      const group = await api('POST', '/groups', { token: owner.token, body: { name: path, path } });
      const milestone = await api('POST', `/projects/${project.id}/milestones`, {
        token: owner.token,
        body: { title: unique('m') },
      });
      const label = await api('POST', `/projects/${project.id}/labels`, {
        token: owner.token,
        body: { name: unique('l'), color: '#336699' },
      });
      const snippet = await api('POST', `/projects/${project.id}/snippets`, {
        token: owner.token,
        body: { title: unique('s'), file_name: 'a.rb', code: 'puts 1', visibility_level: 0 },
      });
      const note = await api('POST', `/projects/${project.id}/issues/${issue.id}/notes`, {
        token: owner.token,
        body: { body: unique('note') },
      });
      const hook = await api('POST', `/projects/${project.id}/hooks`, {
        token: owner.token,
        body: { url: receiver.url(unique('h')), push_events: false, issues_events: true },
      });
      const userKey = await api('POST', '/user/keys', {
        token: owner.token,
        body: { title: unique('k'), key: sshKey() },
      });
      const deployKey = await api('POST', `/projects/${project.id}/keys`, {
        token: owner.token,
        body: { title: unique('d'), key: sshKey() },
      });
      const systemHook = await api('POST', '/hooks', {
        token: stack.rootToken,
        body: { url: `https://example.com/${unique('sys')}` },
      });
      expect(
        [group, milestone, label, snippet, note, hook, userKey, deployKey, systemHook].map((r) => r.status),
      ).toEqual(Array(9).fill(201));
      const data = await ask(
        `query ($path: String!, $group: String!, $issue: Int!, $mr: Int!, $username: String!) {
          project(fullPath: $path) {
            ${NODE_FIELDS}
            namespace { ${NODE_FIELDS} }
            milestones(first: 5) { nodes { ${NODE_FIELDS} } }
          }
          issue(projectPath: $path, iid: $issue) { ${NODE_FIELDS} }
          mergeRequest(projectPath: $path, iid: $mr) { ${NODE_FIELDS} }
          user(username: $username) { ${NODE_FIELDS} }
          group(fullPath: $group) { ${NODE_FIELDS} }
        }
        ${NODE_FRAGMENT}`,
        {
          path: project.path_with_namespace,
          group: path,
          issue: issue.iid,
          mr: mergeRequest.iid,
          username: owner.username,
        },
        owner.token,
      );
      const { namespace, milestones, ...projectNode } = data.project;
      const withId = (list: { nodes: Array<{ databaseId: number }> }, id: number) =>
        list.nodes.find((node) => node.databaseId === id);
      /** The nodes of one list of the project's, asked on its own (a query of all of them passes the cost limit). */
      const projectList = async (field: string) =>
        (
          await ask(
            `query ($path: String!) { project(fullPath: $path) { ${field}(first: 5) { nodes { ${NODE_FIELDS} } } } } ${NODE_FRAGMENT}`,
            { path: project.path_with_namespace },
            owner.token,
          )
        ).project[field];
      const notes = await ask(
        `query ($path: String!, $iid: Int!) { issue(projectPath: $path, iid: $iid) { notes(first: 5) { nodes { ${NODE_FIELDS} } } } } ${NODE_FRAGMENT}`,
        { path: project.path_with_namespace, iid: issue.iid },
        owner.token,
      );
      const keys = await ask(
        `{ viewer { keys(first: 5) { nodes { ${NODE_FIELDS} } } } } ${NODE_FRAGMENT}`,
        {},
        owner.token,
      );
      /** The feed's entry for the issue opened above: projects appends it once it has handled the issue's event. */
      const issueEntry = async () => {
        let entry: { __typename: string; id: string; databaseId: number; actionName: string } | undefined;
        await eventually(async () => {
          const feed = await ask(
            // The fields N selects of an event, without N itself, whose spreads on every kind of Node pass the cost limit on a page of 20.
            `query ($path: String!) { project(fullPath: $path) { events(first: 20) { nodes { __typename id databaseId actionName targetType targetId } } } }`,
            { path: project.path_with_namespace },
            owner.token,
          );
          const found = feed.project.events.nodes.find(
            (node: { targetType: string; targetId: number }) =>
              node.targetType === 'Issue' && node.targetId === issue.id,
          );
          expect(found).toBeDefined();
          entry = {
            __typename: found.__typename,
            id: found.id,
            databaseId: found.databaseId,
            actionName: found.actionName,
          };
        });
        return entry!;
      };
      const systemHookNode = await ask(
        `query ($id: Int!) { systemHook(id: $id) { ${NODE_FIELDS} } } ${NODE_FRAGMENT}`,
        { id: systemHook.body.id },
        stack.rootToken,
      );
      // A project hook's delivery: an issue opened after the hook was added makes one (through events).
      const opened = await api('POST', `/projects/${project.id}/issues`, {
        token: owner.token,
        body: { title: unique('delivered') },
      });
      expect(opened.status).toBe(201);
      let hookDelivery: { __typename: string; id: string; databaseId: number } | undefined;
      await eventually(async () => {
        const logged = await ask(
          `query ($path: String!, $hook: Int!) { project(fullPath: $path) { hook(id: $hook) { deliveries(first: 1) { nodes { ${NODE_FIELDS} } } } } } ${NODE_FRAGMENT}`,
          { path: project.path_with_namespace, hook: hook.body.id },
          owner.token,
        );
        hookDelivery = logged.project.hook.deliveries.nodes[0];
        expect(hookDelivery).toBeDefined();
      }, 15_000);
      // A system hook's delivery: its test event.
      const tested = await ask(
        `mutation ($id: Int!) { testSystemHook(input: { systemHookId: $id }) { hookDelivery { ${NODE_FIELDS} } errors { code } } } ${NODE_FRAGMENT}`,
        { id: systemHook.body.id },
        stack.rootToken,
      );
      expect(tested.testSystemHook.errors).toEqual([]);
      return [
        projectNode,
        namespace,
        withId(milestones, milestone.body.id),
        data.issue,
        data.mergeRequest,
        data.user,
        data.group,
        // v3's label has no id: found by its name.
        (await projectList('labels')).nodes.find((node: { name: string }) => node.name === label.body.name),
        withId(await projectList('snippets'), snippet.body.id),
        withId(notes.issue.notes, note.body.id),
        withId(await projectList('hooks'), hook.body.id),
        withId(keys.viewer.keys, userKey.body.id),
        withId(await projectList('deployKeys'), deployKey.body.id),
        await issueEntry(),
        hookDelivery,
        // Last, for admins only:
        systemHookNode.systemHook,
        tested.testSystemHook.hookDelivery,
      ] as { __typename: string; id: string; databaseId: number }[];
    };

    it('refetches every kind of object by the global id it shows, for a caller who may see it', async () => {
      const nodes = await everyKind();
      expect(nodes.map((n) => n.__typename)).toEqual([
        'Project',
        'Namespace',
        'Milestone',
        'Issue',
        'MergeRequest',
        'User',
        'Group',
        'Label',
        'Snippet',
        'Note',
        'Hook',
        'SshKey',
        'SshKey',
        'ProjectEvent',
        'HookDelivery',
        'SystemHook',
        'HookDelivery',
      ]);
      for (const node of nodes) expect(node.id).toBe(`gid://hub/${node.__typename}/${node.databaseId}`);
      const query = `query ($id: ID!) { node(id: $id) { ${NODE_FIELDS} } } ${NODE_FRAGMENT}`;
      const [owners, adminOnly] = [nodes.slice(0, -2), nodes.slice(-2)];
      for (const node of owners) expect(await ask(query, { id: node.id }, owner.token)).toEqual({ node });
      // A system hook and its deliveries are for admins: null for anyone else, as what does not exist.
      for (const node of adminOnly) {
        expect(await ask(query, { id: node.id }, stack.rootToken)).toEqual({ node });
        expect(await ask(query, { id: node.id }, owner.token)).toEqual({ node: null });
      }
      const many = await ask(
        `query ($ids: [ID!]!) { nodes(ids: $ids) { ${NODE_FIELDS} } } ${NODE_FRAGMENT}`,
        { ids: [...owners.map((n) => n.id), 'gid://hub/Issue/999999999'].reverse() },
        owner.token,
      );
      expect(many).toEqual({ nodes: [null, ...[...owners].reverse()] });
    });

    it('answers null alike for what a stranger may not see and for what does not exist, whatever is asked', async () => {
      const nodes = await everyKind();
      // Everything of the private project, the owner's key and the system hook: none is the stranger's to see.
      const privateOnes = nodes.filter((n) => !['Namespace', 'User', 'Group'].includes(n.__typename));
      expect(privateOnes).toHaveLength(14);
      const missing = privateOnes.map((n) => `gid://hub/${n.__typename}/${n.databaseId + 1_000_000}`);
      // Only the id and the type, which the node lookup could answer without the owner: still null.
      for (const selection of ['id', '__typename id', NODE_FIELDS]) {
        const fragment = selection === NODE_FIELDS ? NODE_FRAGMENT : '';
        const query = `query ($ids: [ID!]!) { nodes(ids: $ids) { ${selection} } } ${fragment}`;
        const ids = [...privateOnes.map((n) => n.id), ...missing];
        expect(await ask(query, { ids }, stranger.token)).toEqual({ nodes: ids.map(() => null) });
        expect(
          await ask(`query ($id: ID!) { node(id: $id) { ${selection} } } ${fragment}`, { id: ids[1] }, stranger.token),
        ).toEqual({ node: null });
      }
    });

    it('refuses an id that is not a global id of this API, and more than 100 ids, naming the argument', async () => {
      for (const [query, variables, argument] of [
        ['query ($id: ID!) { node(id: $id) { id } }', { id: 'gid://hub/Commit/1' }, 'id'],
        ['query ($id: ID!) { node(id: $id) { id } }', { id: String(project.id) }, 'id'],
        ['query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: ['gid://hub/Project/1', 'nope'] }, 'ids'],
        [
          'query ($ids: [ID!]!) { nodes(ids: $ids) { id } }',
          { ids: Array.from({ length: 101 }, (_, i) => `gid://hub/Project/${i + 1}`) },
          'ids',
        ],
      ] as const) {
        const answer = await graphql(query, variables, { 'PRIVATE-TOKEN': owner.token });
        expect(answer.body.errors).toEqual([
          expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', argument }) }),
        ]);
      }
    });
  });
});
