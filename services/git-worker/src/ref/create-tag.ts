import type { RefServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { existingRepo, resolveCommit, runGit, ZERO_OID as ZERO } from '../git/run';
import { signatureText, validateRef, validateTagName } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';
import { describeTags } from './list-tags';

/** A lightweight tag, or an annotated one when a message is given; never moves an existing tag. */
export const CreateTag = (deps: WorkerDeps): RefServiceHandlers['CreateTag'] =>
  unary('CreateTag', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const name = validateTagName(request.name);
    const check = await runGit(repo, ['check-ref-format', `refs/tags/${name}`]);
    if (check.code !== 0) throw gitError('INVALID_ARGUMENT', 'tag_name is invalid', 'tag_name');
    // A tag named like a branch would win when the name is resolved (git looks in refs/tags first)
    // and could stand in for a protected branch.
    const branch = await runGit(repo, ['show-ref', '--verify', '--quiet', '--', `refs/heads/${name}`]);
    if (branch.code === 0) throw gitError('INVALID_ARGUMENT', 'a branch has this name', 'tag_name');
    let sha: string;
    try {
      sha = await resolveCommit(repo, validateRef(request.ref, 'ref'));
    } catch {
      throw gitError('INVALID_ARGUMENT', 'the ref names no commit', 'ref');
    }
    let target = sha;
    if (request.message) {
      const tagger = request.tagger ?? { name: 'Hub', email: 'hub@localhost' };
      const body = `object ${sha}\ntype commit\ntag ${name}\ntagger ${signatureText(tagger.name) || 'Hub'} <${signatureText(tagger.email)}> ${Math.floor(Date.now() / 1000)} +0000\n\n${request.message.endsWith('\n') ? request.message : request.message + '\n'}`;
      const made = await runGit(repo, ['mktag'], { input: body });
      if (made.code !== 0) throw gitError('INVALID_ARGUMENT', 'message is invalid', 'message');
      target = made.stdout.toString('utf8').trim();
    }
    // The zero old value makes the update fail if the tag exists, even under a concurrent create.
    const update = await runGit(repo, ['update-ref', '--', `refs/tags/${name}`, target, ZERO]);
    if (update.code !== 0) throw gitError('ALREADY_EXISTS', 'the tag exists', 'tag_name');
    // GitLab's CreateTagService sent a tag push (events feed, tag push hooks) as a pushed tag would.
    await deps.recordPush({
      projectId: projectIdOf(request),
      repo,
      userId: request.pusher?.userId || null,
      username: request.pusher?.username || null,
      update: { before: ZERO, after: target, ref: `refs/tags/${name}` },
      wasEmpty: false,
    });
    const [tag] = await describeTags(deps.readers.get(repo), [{ name, oid: target }]);
    return tag;
  });
