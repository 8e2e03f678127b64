import { createLogger } from '@hub/common';
import { createGitClients } from '@hub/protos';
import type { Probe } from '../measure';

/**
 * The git worker called straight over gRPC from the bench, as the repository subgraph calls it,
 * with no facade, gateway or subgraph in front. Beside a route's parts floor (those three with
 * the subgraph's answers replayed), it shows what the route's parts cost at the least when added
 * up: when the two together are already slower than the git CLI, the route cannot reach it with
 * these parts, however little the subgraph itself does.
 */
export function workerAlone(address: string, secret: string) {
  const git = createGitClients(address, { caller: 'repository', secret, logger: createLogger('bench', 'silent') });
  const unary = <T>(call: (callback: (error: Error | null, answer: T) => void) => void) =>
    new Promise<T>((resolve, reject) => call((error, answer) => (error ? reject(error) : resolve(answer))));
  // What travels is protobuf; these probes time calls, so no bytes are counted.
  const none = { bytes: 0 };
  return {
    tree:
      (projectId: number, ref: string): Probe =>
      async () => (
        await unary((done) => git.blob.GetTreeEntries({ repository: { projectId }, ref, path: '' }, done)),
        none
      ),
    compare:
      (projectId: number, from: string, to: string): Probe =>
      async () => (await unary((done) => git.diff.CompareRefs({ repository: { projectId }, from, to }, done)), none),
    close: () => git.close(),
  };
}
