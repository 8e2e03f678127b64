import {
  credentials,
  InterceptingCall,
  type Client,
  type ClientUnaryCall,
  type Interceptor,
  type requestCallback,
  type ServiceError,
} from '@grpc/grpc-js';
import {
  ANONYMOUS,
  currentRequestId,
  PRINCIPAL_HEADER,
  REQUEST_ID_HEADER,
  signPrincipal,
  type Logger,
} from '@hub/common';
import { isWorkerRefusal } from './errors';
import { loadGitProtos } from './load';
import type {
  BlobServiceClient,
  CommitServiceClient,
  DiffServiceClient,
  MergeServiceClient,
  RefServiceClient,
  RepositoryServiceClient,
} from './types';

/**
 * Who calls the git worker: a service name, the shared secret its calls are signed with, and
 * where to say that the worker refused them.
 */
export interface GitCaller {
  caller: string;
  secret: string;
  logger: Logger;
}

/** The metadata key a call's credential travels in (the same signed principal as internal HTTP). */
export const GIT_CALLER_METADATA = PRINCIPAL_HEADER;

/**
 * Signs every call, streaming or not, as the calling service; a fresh signature per call, since
 * signed claims expire after a few minutes. A call the worker refuses is answered 503 by the
 * callers (gitDomainError), which log nothing of an expected outcome: the log says here what to fix.
 */
const callerInterceptor =
  ({ caller, secret, logger }: GitCaller): Interceptor =>
  (options, nextCall) =>
    new InterceptingCall(nextCall(options), {
      start: (metadata, _listener, next) => {
        metadata.set(GIT_CALLER_METADATA, signPrincipal({ ...ANONYMOUS, system: caller }, secret));
        const requestId = currentRequestId();
        if (requestId !== undefined) metadata.set(REQUEST_ID_HEADER, requestId);
        next(metadata, {
          onReceiveStatus: (status, nextStatus) => {
            if (isWorkerRefusal(status))
              logger.error(
                { rpc: options.method_definition.path, caller, details: status.details },
                `the git worker refused ${caller}'s signed call: PRINCIPAL_SECRET differs between them, their clocks are more than 5 minutes apart, or ${caller} is not among its callers`,
              );
            nextStatus(status);
          },
        });
      },
    });

/** Bytes in flight per channel from the worker (HTTP/2 connection and stream window). */
const FLOW_CONTROL_WINDOW = 4 * 1024 * 1024;

/** Typed clients for the git worker's services over one channel target (`host:port`), signed as `caller`. */
export function createGitClients(address: string, caller: GitCaller) {
  const protos = loadGitProtos();
  const insecure = credentials.createInsecure();
  // Keep the channel warm between calls; gRPC multiplexes every call over it. Streamed blobs and
  // archives need a receive window larger than HTTP/2's 64 KiB default, which every stream on the
  // channel shares: with it, 32 parallel downloads waited on window updates, not on bytes. The
  // window also bounds what slow readers leave buffered here: 4 MiB per connection, whatever the calls.
  const options = {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
    'grpc-node.flow_control_window': FLOW_CONTROL_WINDOW,
    interceptors: [callerInterceptor(caller)],
  };
  const clients = {
    repository: new protos.RepositoryService(address, insecure, options) as unknown as RepositoryServiceClient,
    ref: new protos.RefService(address, insecure, options) as unknown as RefServiceClient,
    blob: new protos.BlobService(address, insecure, options) as unknown as BlobServiceClient,
    diff: new protos.DiffService(address, insecure, options) as unknown as DiffServiceClient,
    merge: new protos.MergeService(address, insecure, options) as unknown as MergeServiceClient,
    commit: new protos.CommitService(address, insecure, options) as unknown as CommitServiceClient,
  };
  return {
    ...clients,
    close: () => Object.values(clients).forEach((c) => (c as unknown as Client).close()),
  };
}

export type GitClients = ReturnType<typeof createGitClients>;

/** The unary methods of a generated client, as promise-returning functions of the request. */
export type UnaryMethods<C> = {
  [K in keyof C as K extends `${Uppercase<string>}${string}` ? K : never]: C[K] extends (
    argument: infer Req,
    callback: requestCallback<infer Res>,
  ) => ClientUnaryCall
    ? (request: Req) => Promise<Res>
    : never;
};

/**
 * Wraps a generated client so each unary call is `await client.Method(request)`, with a deadline
 * so a stuck worker never hangs a request.
 */
export function promised<C extends object>(client: C, timeoutMs = 30_000): UnaryMethods<C> {
  return new Proxy({} as UnaryMethods<C>, {
    get: (_target, name) => (request: unknown) =>
      new Promise((resolve, reject) =>
        (client as Record<string | symbol, (...args: unknown[]) => unknown>)[name].call(
          client,
          request,
          { deadline: new Date(Date.now() + timeoutMs) },
          (error: ServiceError | null, response: unknown) => (error ? reject(error) : resolve(response)),
        ),
      ),
  });
}
