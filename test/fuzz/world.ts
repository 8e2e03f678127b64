import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { call, type WireResponse } from './http';

/** The ids of one project and of one record of each kind inside it. */
export interface ProjectFixture extends ProjectName {
  sha: string;
  blobSha: string;
  issue: number;
  issueNote: number;
  mergeRequest: number;
  mergeRequestNote: number;
  snippet: number;
  snippetNote: number;
  hook: number;
  milestone: number;
  deployKey: number;
}

/** A project's names: its id, NAMESPACE%2FNAME (as the "id or path" routes take it) and NAMESPACE/NAME. */
export interface ProjectName {
  id: number;
  encodedPath: string;
  fullPath: string;
}

export interface GroupFixture {
  id: number;
  path: string;
}

export interface UserFixture {
  id: number;
  username: string;
  token: string;
  password: string;
}

/**
 * What the fuzz runs against. `owner` has a private project (`victim`) full of records whose text
 * carries `canary`, and a group; `actor` is the fuzz's signed-in caller: a member of neither, with a
 * project of its own (`own`) it may write to. `missing` is a project that was deleted: a caller
 * without access must not tell `victim` from it. `visible` is the owner's internal project, which
 * the actor may read but not change.
 */
export interface World {
  origin: string;
  graphqlUrl: string;
  rootToken: string;
  owner: UserFixture;
  actor: UserFixture;
  /** An OAuth access token of the actor. */
  actorBearer: string;
  victim: ProjectFixture;
  visible: ProjectFixture;
  own: ProjectFixture;
  missing: ProjectName;
  group: GroupFixture;
  missingUserId: number;
  /**
   * What the authorised inputs act on in the victim's, the owner's and the group's place (see
   * requests.ts): `ownGroup` is the actor's group, `spare` a user only root changes, and
   * `spareProject` (the actor's) and `spareGroup` (the actor's) are there to be deleted or moved.
   */
  spare: { id: number; username: string };
  ownGroup: GroupFixture;
  spareGroup: GroupFixture;
  spareProject: ProjectName;
  /** Text written only into the victim's records (and the owner's group): no other caller may ever read it. */
  canary: string;
  /** Strings no response may carry to a caller who does not own them. */
  secrets: { ownerToken: string; rootToken: string; principalSecret: string; dataDir: string | null; repoRoot: string };
}

const hex = (n: number) => randomBytes(n).toString('hex');

const projectName = (project: { id: number; path_with_namespace: string }): ProjectName => ({
  id: project.id,
  fullPath: project.path_with_namespace,
  encodedPath: encodeURIComponent(project.path_with_namespace),
});

async function ok(res: Promise<WireResponse>, what: string): Promise<any> {
  const r = await res;
  if (r.status >= 300) throw new Error(`fuzz world: ${what} failed: ${r.status} ${r.text.slice(0, 300)}`);
  return r.json;
}

/** An OpenSSH ed25519 public key line, made here (no ssh-keygen needed). */
function sshPublicKey(): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const part = (b: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(b.length);
    return Buffer.concat([length, b]);
  };
  const blob = Buffer.concat([part(Buffer.from('ssh-ed25519')), part(raw)]);
  return `ssh-ed25519 ${blob.toString('base64')} fuzz@world`;
}

async function createUser(origin: string, rootToken: string, prefix: string): Promise<UserFixture> {
  const username = `${prefix}${hex(4)}`;
  const password = `pw-${hex(8)}`;
  const user = await ok(
    call(origin, 'POST', '/api/v3/users', rootToken, {
      username,
      password,
      email: `${username}@fuzz.example`,
      name: username,
    }),
    'creating a user',
  );
  const session = await ok(call(origin, 'POST', '/api/v3/session', null, { login: username, password }), 'signing in');
  return { id: user.id, username, token: session.private_token, password };
}

/** A project with one record of every kind, written with `text` (the canary for the victim). */
async function createProjectFixture(
  origin: string,
  token: string,
  name: string,
  text: string,
  visibility: number,
): Promise<ProjectFixture> {
  const api = (method: string, path: string, body?: unknown) =>
    ok(call(origin, method, `/api/v3${path}`, token, body), `${method} ${path}`);
  const project = await api('POST', '/projects', {
    name,
    visibility_level: visibility,
    snippets_enabled: true,
    description: `description ${text}`,
  });
  const p = `/projects/${project.id}`;
  // The repository is made when the git worker hears of the new project: wait for it.
  for (let tries = 0; ; tries++) {
    const first = await call(origin, 'POST', `/api/v3${p}/repository/files`, token, {
      file_path: 'README.md',
      branch_name: 'master',
      content: `readme ${text}\n`,
      commit_message: `first ${text}`,
    });
    if (first.status < 300) break;
    if (first.status !== 404 || tries > 100)
      throw new Error(`fuzz world: the first commit failed: ${first.status} ${first.text.slice(0, 200)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await api('POST', `${p}/repository/branches`, { branch_name: 'feature', ref: 'master' });
  await api('POST', `${p}/repository/files`, {
    file_path: 'docs/notes.txt',
    branch_name: 'feature',
    content: `notes ${text}\n`,
    commit_message: `second ${text}`,
  });
  await api('POST', `${p}/repository/tags`, { tag_name: 'v1', ref: 'master', message: `tag ${text}` });
  const branch = await api('GET', `${p}/repository/branches/master`);
  const tree = await api('GET', `${p}/repository/tree`);
  await api('POST', `${p}/repository/commits/${branch.commit.id}/comments`, { note: `commit comment ${text}` });
  const issue = await api('POST', `${p}/issues`, { title: `issue ${text}`, description: `issue body ${text}` });
  const issueNote = await api('POST', `${p}/issues/${issue.id}/notes`, { body: `issue note ${text}` });
  const mr = await api('POST', `${p}/merge_requests`, {
    source_branch: 'feature',
    target_branch: 'master',
    title: `mr ${text}`,
    description: `mr body ${text}`,
  });
  const mrNote = await api('POST', `${p}/merge_requests/${mr.id}/notes`, { body: `mr note ${text}` });
  const snippet = await api('POST', `${p}/snippets`, {
    title: `snippet ${text}`,
    file_name: 'a.txt',
    code: `code ${text}`,
    visibility_level: visibility === 0 ? 0 : 20,
  });
  const snippetNote = await api('POST', `${p}/snippets/${snippet.id}/notes`, { body: `snippet note ${text}` });
  const hook = await api('POST', `${p}/hooks`, { url: `http://127.0.0.1:9/${text}` });
  await api('POST', `${p}/labels`, { name: `label-${text}`, color: '#ff0000' });
  const milestone = await api('POST', `${p}/milestones`, { title: `milestone ${text}` });
  const key = await api('POST', `${p}/keys`, { title: `key ${text}`, key: sshPublicKey() });
  return {
    ...projectName(project),
    sha: branch.commit.id,
    blobSha: tree.find((e: { name: string }) => e.name === 'README.md').id,
    issue: issue.id,
    issueNote: issueNote.id,
    mergeRequest: mr.id,
    mergeRequestNote: mrNote.id,
    snippet: snippet.id,
    snippetNote: snippetNote.id,
    hook: hook.id,
    milestone: milestone.id,
    deployKey: key.id,
  };
}

export async function createWorld(opts: {
  origin: string;
  graphqlUrl: string;
  rootToken: string;
  principalSecret: string;
  dataDir: string | null;
  repoRoot: string;
}): Promise<World> {
  const { origin, rootToken } = opts;
  const canary = `CANARY${hex(8)}`;
  const [owner, actor] = await Promise.all([
    createUser(origin, rootToken, 'fzowner'),
    createUser(origin, rootToken, 'fzactor'),
  ]);
  const [victim, visible, own] = await Promise.all([
    createProjectFixture(origin, owner.token, `victim-${hex(3)}`, canary, 0),
    createProjectFixture(origin, owner.token, `visible-${hex(3)}`, 'visible', 10),
    createProjectFixture(origin, actor.token, `own-${hex(3)}`, 'own', 0),
  ]);
  const gone = await ok(
    call(origin, 'POST', '/api/v3/projects', owner.token, { name: `gone-${hex(3)}`, visibility_level: 0 }),
    'creating the missing project',
  );
  await ok(call(origin, 'DELETE', `/api/v3/projects/${gone.id}`, owner.token), 'deleting the missing project');
  const createGroup = async (token: string, description: string): Promise<GroupFixture> => {
    const made = await ok(
      call(origin, 'POST', '/api/v3/groups', token, { name: `grp-${hex(3)}`, path: `grp-${hex(3)}`, description }),
      'creating a group',
    );
    return { id: made.id, path: made.path };
  };
  const [group, ownGroup, spareGroup] = await Promise.all([
    createGroup(owner.token, `group ${canary}`),
    createGroup(actor.token, 'own group'),
    createGroup(actor.token, 'spare group'),
  ]);
  const spareProject = await ok(
    call(origin, 'POST', '/api/v3/projects', actor.token, { name: `spare-${hex(3)}`, visibility_level: 0 }),
    'creating the spare project',
  );
  const spare = await ok(
    call(origin, 'POST', '/api/v3/users', rootToken, {
      username: `fzspare${hex(3)}`,
      password: `pw-${hex(8)}`,
      email: `spare${hex(3)}@fuzz.example`,
      name: 'spare',
    }),
    'creating the spare user',
  );
  const ghost = await ok(
    call(origin, 'POST', '/api/v3/users', rootToken, {
      username: `fzghost${hex(3)}`,
      password: `pw-${hex(8)}`,
      email: `ghost${hex(3)}@fuzz.example`,
      name: 'ghost',
    }),
    'creating a user to delete',
  );
  await ok(call(origin, 'DELETE', `/api/v3/users/${ghost.id}`, rootToken), 'deleting a user');
  const bearer = await ok(
    call(origin, 'POST', '/oauth/token', null, {
      grant_type: 'password',
      username: actor.username,
      password: actor.password,
    }),
    'getting an OAuth token',
  );
  return {
    origin,
    graphqlUrl: opts.graphqlUrl,
    rootToken,
    owner,
    actor,
    actorBearer: bearer.access_token,
    victim,
    visible,
    own,
    missing: projectName(gone),
    group,
    missingUserId: ghost.id,
    spare: { id: spare.id, username: spare.username },
    ownGroup,
    spareGroup,
    spareProject: projectName(spareProject),
    canary,
    secrets: {
      ownerToken: owner.token,
      rootToken,
      principalSecret: opts.principalSecret,
      dataDir: opts.dataDir,
      repoRoot: opts.repoRoot,
    },
  };
}
