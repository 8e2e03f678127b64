import { CommitFileDocument, type FileAction } from '../generated/operations';
import type { Route } from '../route';
import { projectIdOf } from './project-key';

/**
 * GitLab 7.14's repository files writes (lib/api/files.rb): one commit each, push rights, the
 * answer `{ file_path, branch_name }`. Reading a file streams (routes/repository-downloads.ts).
 */
const write = (method: Route['method'], action: FileAction, status: number): Route => ({
  method,
  path: '/projects/:id/repository/files',
  handle: async (p, gateway) => {
    p.require('file_path', 'branch_name', ...(action === 'DELETE' ? [] : ['content']), 'commit_message');
    const { commitFile } = await gateway(CommitFileDocument, {
      projectId: await projectIdOf(p, gateway),
      action,
      input: {
        branch: p.string('branch_name')!,
        path: p.string('file_path')!,
        content: action === 'DELETE' ? null : p.string('content')!,
        encoding: p.string('encoding') ?? null,
        commitMessage: p.string('commit_message')!,
      },
    });
    return { status, body: commitFile };
  },
});

export const fileRoutes: Route[] = [
  write('post', 'CREATE', 201),
  write('put', 'UPDATE', 200),
  write('delete', 'DELETE', 200),
];
