import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommitServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { existingRepo, findCommit, gitText, isEmptyRepo, runGit, ZERO_OID as ZERO } from '../git/run';
import { signatureText, validateBranchName, validatePath } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

const ATTEMPTS = 3;

/** The tree entry at `path` in `commit` (mode, type, id), or null. */
async function entryAt(
  repo: string,
  commit: string,
  path: string,
): Promise<{ mode: string; type: string; id: string } | null> {
  const result = await runGit(repo, ['ls-tree', '-z', '--full-tree', '--end-of-options', commit, '--', path]);
  const line = result.stdout.toString('utf8').split('\0')[0];
  if (result.code !== 0 || !line) return null;
  const [mode, type, id] = line.slice(0, line.indexOf('\t')).split(' ');
  return { mode, type, id };
}

/**
 * A commit changing one file, made with git's plumbing in a private index (no working tree, no
 * checkout): read the parent's tree, change one entry, write the tree, commit it, and move the
 * branch with update-ref from the parent it was built on. If the branch moved meanwhile the
 * change is made again on the new tip; the push event then names exactly this commit.
 */
export const CommitFile = (deps: WorkerDeps): CommitServiceHandlers['CommitFile'] =>
  unary('CommitFile', deps, async (request) => {
    const projectId = projectIdOf(request);
    const repo = existingRepo(deps.root, projectId);
    const branch = validateBranchName(request.branch);
    const path = validatePath(request.path, 'file_path');
    if (path === '') throw gitError('INVALID_ARGUMENT', 'file_path is invalid', 'file_path');
    if (request.action === 'ACTION_UNSPECIFIED') throw gitError('INVALID_ARGUMENT', 'action is missing', 'action');
    const ref = `refs/heads/${branch}`;
    const name = signatureText(request.author?.name ?? '') || 'Hub';
    const email = signatureText(request.author?.email ?? '');
    const env = {
      GIT_AUTHOR_NAME: name,
      GIT_AUTHOR_EMAIL: email,
      GIT_COMMITTER_NAME: name,
      GIT_COMMITTER_EMAIL: email,
    };
    const scratch = await mkdtemp(join(tmpdir(), 'hub-commit-'));
    try {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const parent = await findCommit(repo, ref);
        // Only a first file may start a branch, and only in a repository with nothing in it yet.
        const wasEmpty = !parent && (await isEmptyRepo(repo));
        if (!parent && !(request.action === 'CREATE' && wasEmpty))
          throw gitError('REF_NOT_FOUND', 'no such branch', 'branch_name');
        const existing = parent ? await entryAt(repo, parent, path) : null;
        if (request.action === 'CREATE' && existing)
          throw gitError('ALREADY_EXISTS', 'a file exists at this path', 'file_path');
        if (request.action !== 'CREATE' && existing?.type !== 'blob')
          throw gitError('PATH_NOT_FOUND', 'no file at this path', 'file_path');

        const index = { ...env, GIT_INDEX_FILE: join(scratch, `index-${attempt}`) };
        await gitText(repo, parent ? ['read-tree', '--end-of-options', parent] : ['read-tree', '--empty'], {
          env: index,
        });
        if (request.action === 'DELETE') {
          // --index-info with mode 0 removes an entry; --force-remove would want a working tree.
          await gitText(repo, ['update-index', '-z', '--index-info'], { env: index, input: `0 ${ZERO}\t${path}\0` });
        } else {
          const blob = (
            await gitText(repo, ['hash-object', '-w', '--stdin'], { input: request.content ?? Buffer.alloc(0) })
          ).trim();
          if (request.action === 'UPDATE' && blob === existing!.id)
            throw gitError('ALREADY_EXISTS', 'the file already has this content', 'content');
          // An update keeps the file's mode (an executable stays executable).
          const mode = existing?.mode ?? '100644';
          const added = await runGit(repo, ['update-index', '--add', '--cacheinfo', `${mode},${blob},${path}`], {
            env: index,
          });
          // A folder in the path is a file already (a.txt/b when a.txt is a file).
          if (added.code !== 0) throw gitError('INVALID_ARGUMENT', 'the path runs through a file', 'file_path');
        }
        const tree = (await gitText(repo, ['write-tree'], { env: index })).trim();
        const commit = (
          await gitText(repo, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'], {
            input: request.message,
            env,
          })
        ).trim();
        const moved = await runGit(repo, [
          'update-ref',
          '-m',
          'commit through the API',
          '--',
          ref,
          commit,
          parent ?? ZERO,
        ]);
        if (moved.code !== 0) continue;
        await deps.recordPush({
          projectId,
          userId: request.userId || null,
          username: request.username || null,
          update: { before: parent ?? ZERO, after: commit, ref },
          wasEmpty,
          repo,
        });
        return { commitId: commit };
      }
      throw gitError('CONCURRENT_UPDATE', 'the branch kept moving', 'branch_name');
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
