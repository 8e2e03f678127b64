import { Server, ServerCredentials, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { INTERNAL_BODY_LIMIT } from '@hub/common';
import { loadGitProtos, withBytesSerializers } from '@hub/protos';
import { GetBlob } from './blob/get-blob';
import { GetTreeEntries } from './blob/get-tree-entries';
import { CommitDiff } from './commit/commit-diff';
import { CommitFile } from './commit/commit-file';
import { ListCommits } from './commit/list-commits';
import { CompareRefs } from './diff/compare-refs';
import { ListContributors } from './diff/list-contributors';
import { CreateBranch } from './ref/create-branch';
import { CreateTag } from './ref/create-tag';
import { DeleteBranch } from './ref/delete-branch';
import { FindBranch } from './ref/find-branch';
import { FindCommit } from './ref/find-commit';
import { ListBranches } from './ref/list-branches';
import { ListTags } from './ref/list-tags';
import { CreateRepository } from './repository/create-repository';
import { DeleteRepository } from './repository/delete-repository';
import { ForkRepository } from './repository/fork-repository';
import { ImportRepository } from './repository/import-repository';
import { CheckMergeability } from './merge/check-mergeability';
import { MergeBranch } from './merge/merge-branch';
import { MergeRequestDiffs } from './merge/merge-request-diffs';
import { RepositoryInfo } from './repository/repository-info';
import type { WorkerDeps } from './rpc';

/** The gRPC server with every service of protos/ registered, one handler per RPC. */
export function createGrpcServer(deps: WorkerDeps): Server {
  const protos = loadGitProtos();
  // A file written through the API arrives as one message: accept what the facade let in.
  const server = new Server({
    'grpc.max_send_message_length': 16 * 1024 * 1024,
    'grpc.max_receive_message_length': INTERNAL_BODY_LIMIT,
  });
  // Every service goes through here so that none misses the streamed-bytes encoder.
  const add = (service: ServiceDefinition, handlers: UntypedServiceImplementation) =>
    server.addService(withBytesSerializers(service), handlers);
  add(protos.RepositoryService.service, {
    CreateRepository: CreateRepository(deps),
    DeleteRepository: DeleteRepository(deps),
    ForkRepository: ForkRepository(deps),
    ImportRepository: ImportRepository(deps),
    RepositoryInfo: RepositoryInfo(deps),
  });
  add(protos.RefService.service, {
    ListBranches: ListBranches(deps),
    FindBranch: FindBranch(deps),
    ListTags: ListTags(deps),
    CreateTag: CreateTag(deps),
    FindCommit: FindCommit(deps),
    CreateBranch: CreateBranch(deps),
    DeleteBranch: DeleteBranch(deps),
  });
  add(protos.BlobService.service, {
    GetTreeEntries: GetTreeEntries(deps),
    GetBlob: GetBlob(deps),
  });
  add(protos.DiffService.service, {
    CompareRefs: CompareRefs(deps),
    ListContributors: ListContributors(deps),
  });
  add(protos.MergeService.service, {
    CheckMergeability: CheckMergeability(deps),
    MergeBranch: MergeBranch(deps),
    MergeRequestDiffs: MergeRequestDiffs(deps),
  });
  add(protos.CommitService.service, {
    ListCommits: ListCommits(deps),
    CommitDiff: CommitDiff(deps),
    CommitFile: CommitFile(deps),
  });
  return server;
}

/** Binds and starts; port 0 picks a free one. */
export function bindGrpc(server: Server, port: number, host = '0.0.0.0'): Promise<number> {
  return new Promise((resolve, reject) =>
    server.bindAsync(`${host}:${port}`, ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
}
