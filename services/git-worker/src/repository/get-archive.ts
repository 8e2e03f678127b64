import type { RepositoryServiceHandlers } from '@hub/protos';
import { launchGit } from '../git/run';
import { pipeToCall } from '../git/stream';
import { streaming, projectIdOf, type WorkerDeps } from '../rpc';
import { archiveCommand } from './archive-command';

export const GetArchive = (deps: WorkerDeps): RepositoryServiceHandlers['GetArchive'] =>
  streaming('GetArchive', deps, async (request, call) => {
    const { repo, args } = await archiveCommand(deps, projectIdOf(request), request);
    await pipeToCall(launchGit(repo, args), call, (data) => ({ data }));
  });
