// The message and service types generated from the .proto files, under short names.
export type { Branch__Output as Branch } from './generated/hub/git/v1/Branch';
export type { BlobMessage__Output as BlobMessage } from './generated/hub/git/v1/BlobMessage';
export type { BlobServiceClient, BlobServiceHandlers } from './generated/hub/git/v1/BlobService';
export type { Commit__Output as Commit } from './generated/hub/git/v1/Commit';
export type { CompareRefsResponse } from './generated/hub/git/v1/CompareRefsResponse';
export type { Contributor } from './generated/hub/git/v1/Contributor';
export type { Diff } from './generated/hub/git/v1/Diff';
export type { DiffServiceClient, DiffServiceHandlers } from './generated/hub/git/v1/DiffService';
export type { ErrorDetail, ErrorDetail__Output } from './generated/hub/git/v1/ErrorDetail';
export type { RefServiceClient, RefServiceHandlers } from './generated/hub/git/v1/RefService';
export type { RepositoryServiceClient, RepositoryServiceHandlers } from './generated/hub/git/v1/RepositoryService';
export type { Signature__Output as Signature } from './generated/hub/git/v1/Signature';
export type { Tag__Output as Tag, Tag as TagInput } from './generated/hub/git/v1/Tag';
export type { TreeEntry } from './generated/hub/git/v1/TreeEntry';
