import { objectOf } from '../../openapi/json-schema';
import { oneOf, required, str } from '../../param-docs';
import type { RouteDoc } from '../../route';

export const ARCHIVE_TYPES: Record<string, string> = {
  'tar.gz': 'application/x-gzip',
  'tar.bz2': 'application/x-bzip2',
  tar: 'application/x-tar',
  zip: 'application/zip',
};

/** Text as text; any other blob as bytes, never with a charset. */
export const BLOB_TYPES = ['text/plain; charset=utf-8', 'application/octet-stream'];

/** What the download routes serve, for the OpenAPI description; the router serves these paths. */
export const BLOB: RouteDoc = {
  method: 'get',
  path: '/projects/:id/repository/blobs/:sha',
  summary: "A file's bytes at a commit, branch or tag",
  params: { filepath: required(str('The file, from the root of the tree.')) },
  contentTypes: BLOB_TYPES,
};
export const COMMIT_BLOB: RouteDoc = { ...BLOB, path: '/projects/:id/repository/commits/:sha/blob' };
export const RAW_BLOB: RouteDoc = {
  method: 'get',
  path: '/projects/:id/repository/raw_blobs/:sha',
  summary: "A blob's bytes, by its sha",
  contentTypes: BLOB_TYPES,
};
export const FILE: RouteDoc = {
  method: 'get',
  path: '/projects/:id/repository/files',
  summary: 'A file at a commit, branch or tag: its metadata, and its content in base64',
  untagged: true,
  params: { file_path: required(str()), ref: required(str('A branch, tag or commit.')) },
  response: () =>
    objectOf({
      file_name: { type: 'string' },
      file_path: { type: 'string' },
      size: { type: 'integer' },
      encoding: { const: 'base64' },
      content: { type: 'string', contentEncoding: 'base64' },
      ref: { type: 'string' },
      blob_id: { type: 'string' },
      commit_id: { type: 'string' },
    }),
};
export const ARCHIVE: RouteDoc = {
  method: 'get',
  path: '/projects/:id/repository/archive',
  summary: 'An archive (tar.gz) of the repository at a commit',
  params: { sha: str('A commit, branch or tag: the tip of the default branch by default.') },
  contentTypes: [ARCHIVE_TYPES['tar.gz']],
};
export const FORMATTED_ARCHIVE: RouteDoc = {
  ...ARCHIVE,
  path: '/projects/:id/repository/archive.:format',
  summary: 'An archive of the repository at a commit, in the format the path names',
  params: { ...ARCHIVE.params, format: oneOf(Object.keys(ARCHIVE_TYPES)) },
  contentTypes: [...new Set(Object.values(ARCHIVE_TYPES))],
};
