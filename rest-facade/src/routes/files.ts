import { CommitFileDocument, type FileAction } from '../generated/operations';
import { payloadEntity } from '../gateway-client';
import { required, str } from '../param-docs';
import type { Route } from '../route';
import { projectIdOf } from './project-key';

/**
 * GitLab 7.14's repository files writes (lib/api/files.rb): one commit each, push rights, the
 * answer `{ file_path, branch_name }`. Reading a file streams (routes/repository-downloads.ts).
 */
const write = (method: Route['method'], action: FileAction, status: number, summary: string): Route => ({
  method,
  path: '/projects/:id/repository/files',
  summary,
  status,
  params: {
    file_path: required(str()),
    branch_name: required(str()),
    ...(action === 'DELETE' ? {} : { content: required(str()) }),
    encoding: str('Of content: text (the default) or base64.'),
    commit_message: required(str()),
  },
  response: (g) => g.select(CommitFileDocument, 'commitFile.fileCommit'),
  handle: async (p, gateway) => {
    p.require('file_path', 'branch_name', ...(action === 'DELETE' ? [] : ['content']), 'commit_message');
    const { commitFile } = await gateway(CommitFileDocument, {
      input: {
        projectId: await projectIdOf(p, gateway),
        action,
        branch: p.string('branch_name')!,
        path: p.string('file_path')!,
        content: action === 'DELETE' ? null : p.string('content')!,
        encoding: p.string('encoding') ?? null,
        commitMessage: p.string('commit_message')!,
      },
    });
    return { body: payloadEntity(commitFile.fileCommit) };
  },
});

export const fileRoutes: Route[] = [
  write('post', 'CREATE', 201, 'Creates a file in one commit'),
  write('put', 'UPDATE', 200, 'Changes a file in one commit'),
  write('delete', 'DELETE', 200, 'Deletes a file in one commit'),
];
