import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, createProject, createUser, eventually, stack, type TestUser } from '../support/api';
import { git, ok, remoteUrl, workingCopy } from '../support/git';

/** Where the test stack's git worker keeps a project's repository. */
const repoDir = (projectId: number) => join(stack.dir, 'repositories', `${projectId}.git`);

describe('repositories follow their projects', () => {
  let owner: TestUser;
  beforeAll(async () => {
    owner = await createUser();
  });

  it('creates an empty repository with the project', async () => {
    const project = await createProject(owner.token, { default_branch: 'main' });
    await eventually(async () => expect(existsSync(join(repoDir(project.id), 'HEAD'))).toBe(true));
    expect(readFileSync(join(repoDir(project.id), 'HEAD'), 'utf8').trim()).toBe('ref: refs/heads/main');
  });

  it('removes the repository with the project', async () => {
    const project = await createProject(owner.token);
    ok(
      await git(
        await workingCopy({ 'a.txt': 'a' }),
        'push',
        remoteUrl(project.path_with_namespace, owner.username, owner.token),
        'master',
      ),
    );
    expect(existsSync(repoDir(project.id))).toBe(true);
    expect((await api('DELETE', `/projects/${project.id}`, { token: owner.token })).status).toBe(200);
    await eventually(async () => expect(existsSync(repoDir(project.id))).toBe(false));
  });

  it('forks the repository cheaply, sharing the objects of the source', async () => {
    const source = await createProject(owner.token, { visibility_level: 10 });
    ok(
      await git(
        await workingCopy({ 'src/main.c': 'int main() {}\n' }),
        'push',
        remoteUrl(source.path_with_namespace, owner.username, owner.token),
        'master',
      ),
    );
    const forker = await createUser();
    const fork = await api('POST', `/projects/fork/${source.id}`, { token: forker.token });
    expect(fork.status).toBe(201);
    await eventually(async () => {
      const branches = await api('GET', `/projects/${fork.body.id}/repository/branches`, { token: forker.token });
      expect(branches.body.map((b: { name: string }) => b.name)).toEqual(['master']);
    });
    expect(readFileSync(join(repoDir(fork.body.id), 'objects', 'info', 'alternates'), 'utf8')).toContain(
      `${source.id}.git`,
    );
    const blob = await api('GET', `/projects/${fork.body.id}/repository/blobs/master`, {
      token: forker.token,
      query: { filepath: 'src/main.c' },
    });
    expect(blob.text).toBe('int main() {}\n');
    // The fork takes pushes of its own.
    const wc = await workingCopy({ 'fork.txt': 'mine' });
    ok(
      await git(
        wc,
        'push',
        remoteUrl(fork.body.path_with_namespace, forker.username, forker.token),
        'master:fork-branch',
      ),
    );
  });

  it('imports the repository from import_url without delaying the create', async () => {
    const source = await createProject(owner.token, { visibility_level: 20 });
    ok(
      await git(
        await workingCopy({ 'imported.txt': 'from elsewhere\n' }),
        'push',
        remoteUrl(source.path_with_namespace, owner.username, owner.token),
        'master',
      ),
    );
    const imported = await api('POST', '/projects', {
      token: owner.token,
      body: { name: `${source.name}-import`, import_url: remoteUrl(source.path_with_namespace) },
    });
    expect(imported.status).toBe(201);
    await eventually(async () => {
      const blob = await api('GET', `/projects/${imported.body.id}/repository/blobs/master`, {
        token: owner.token,
        query: { filepath: 'imported.txt' },
      });
      expect(blob.text).toBe('from elsewhere\n');
    }, 15_000);
  });
});
