import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stackInfo } from './stack-info';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the git CLI; never prompts (a missing credential fails instead of waiting). */
export function git(cwd: string, ...args: string[]): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [
        '-c',
        'user.name=Test Pusher',
        '-c',
        'user.email=pusher@example.com',
        '-c',
        'init.defaultBranch=master',
        ...args,
      ],
      {
        cwd,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true', SSH_ASKPASS: 'true' },
        encoding: 'utf8',
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** git over HTTP through the facade, with HTTP basic credentials in the URL when given. */
export function remoteUrl(pathWithNamespace: string, login?: string, secret?: string): string {
  // Read when called: the files with stacks of their own use the rest of this module without the shared one.
  const url = new URL(`${stackInfo().baseUrl}/${pathWithNamespace}.git`);
  if (login) {
    url.username = encodeURIComponent(login);
    url.password = encodeURIComponent(secret ?? '');
  }
  return url.toString();
}

/** A scratch working copy with the given files committed on `branch`. */
export async function workingCopy(
  files: Record<string, string | Buffer>,
  branch = 'master',
  message = 'initial commit',
): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'hub-wc-'));
  await git(dir, 'init', '-q', '-b', branch);
  await commitFiles(dir, files, message);
  return dir;
}

export async function commitFiles(
  dir: string,
  files: Record<string, string | Buffer>,
  message: string,
): Promise<string> {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  await git(dir, 'add', '-A');
  const commit = await git(dir, 'commit', '-q', '-m', message);
  if (commit.code !== 0) throw new Error(`commit failed: ${commit.stderr}`);
  return (await git(dir, 'rev-parse', 'HEAD')).stdout.trim();
}

/** The result, or an error carrying git's own explanation. */
export function ok(result: GitResult): GitResult {
  if (result.code !== 0) throw new Error(`git failed (${result.code}): ${result.stderr}`);
  return result;
}
