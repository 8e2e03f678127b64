import type { Logger } from '@hub/common';
import type { GitShards } from '@hub/protos';
import type { GatewayClient } from '../../gateway-client';
import type { WorkerPools } from '../../worker-http';

export interface DownloadDeps {
  gateway: GatewayClient;
  git: GitShards;
  workers: WorkerPools;
  secret: string;
  logger: Logger;
}
