// Loading the .proto files at run time, and the ErrorDetail trailer's codec.
import { resolve } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import type { ProtoGrpcType as BlobProto } from './generated/blob';
import type { ProtoGrpcType as CommitProto } from './generated/commit';
import type { ProtoGrpcType as DiffProto } from './generated/diff';
import type { ProtoGrpcType as ErrorsProto } from './generated/errors';
import type { ProtoGrpcType as MergeProto } from './generated/merge';
import type { ProtoGrpcType as RefProto } from './generated/ref';
import type { ProtoGrpcType as RepositoryProto } from './generated/repository';

const PROTO_DIR = resolve(__dirname, '..');
const PROTO_FILES = [
  'shared.proto',
  'errors.proto',
  'repository.proto',
  'ref.proto',
  'blob.proto',
  'diff.proto',
  'merge.proto',
  'commit.proto',
];

/** The options the TypeScript types were generated with (see package.json's codegen). */
const LOADER_OPTIONS = {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
};

export type GitProtos = (RepositoryProto &
  RefProto &
  BlobProto &
  DiffProto &
  MergeProto &
  CommitProto &
  ErrorsProto)['hub']['git']['v1'];

/** The git worker's services and messages, loaded from the .proto files at run time. */
export function loadGitProtos(): GitProtos {
  const definition = loadSync(PROTO_FILES, LOADER_OPTIONS);
  const loaded = grpc.loadPackageDefinition(definition) as unknown as { hub: { git: { v1: GitProtos } } };
  return loaded.hub.git.v1;
}

/** The binary trailer a failed call carries its ErrorDetail in. */
export const ERROR_DETAIL_TRAILER = 'hub-error-bin';

const errorDetailType = protobuf.loadSync(resolve(PROTO_DIR, 'errors.proto')).lookupType('hub.git.v1.ErrorDetail');

/** ErrorDetail to the bytes of the trailer (kind by name, as the loader's enums: String). */
export function encodeErrorDetail(detail: { kind: string; message: string; field?: string }): Buffer {
  const message = errorDetailType.fromObject({ kind: detail.kind, message: detail.message, field: detail.field ?? '' });
  return Buffer.from(errorDetailType.encode(message).finish());
}

export function decodeErrorDetail(bytes: Buffer): { kind: string; message: string; field: string } {
  const decoded = errorDetailType.toObject(errorDetailType.decode(bytes), { enums: String, defaults: true });
  return decoded as { kind: string; message: string; field: string };
}
