import type { Commit, Signature } from '@hub/protos';
import type { ObjectReader } from './object-reader';
import { spawnGit, type StartGit } from './run';

interface RawObject {
  oid: string;
  type: string;
  body: Buffer;
}

/**
 * Reads objects with one `git cat-file --batch` for the whole list, started with `start` (the
 * launcher in the worker; a round trip per object would cost a process each): for the push events
 * and a new branch, which may read in a repository no warm reader serves. Missing objects come
 * back as null.
 */
export function readObjects(repo: string, oids: string[], start?: StartGit): Promise<Array<RawObject | null>> {
  if (oids.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    const child = spawnGit(repo, ['cat-file', '--batch'], {}, { start });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      // A repository removed meanwhile (its project deleted during a push) fails here, not as short output.
      if (code !== 0) return reject(new Error(`git cat-file failed (${code}): ${stderr.trim()}`));
      const data = Buffer.concat(chunks);
      const results: Array<RawObject | null> = [];
      let at = 0;
      for (let i = 0; i < oids.length; i++) {
        const eol = data.indexOf(0x0a, at);
        if (eol < 0) return reject(new Error('cat-file output ended early'));
        const header = data.subarray(at, eol).toString('utf8');
        at = eol + 1;
        if (header.endsWith(' missing')) {
          results.push(null);
          continue;
        }
        const [oid, type, size] = header.split(' ');
        const length = Number(size);
        results.push({ oid, type, body: data.subarray(at, at + length) });
        at += length + 1;
      }
      resolve(results);
    });
    // A git that exits without reading (no repository) makes the write fail; its exit code says why.
    child.stdin.on('error', () => {});
    child.stdin.end(oids.join('\n') + '\n');
  });
}

/** `Name <email> 1700000000 +0130` → a Signature with an ISO date in the signer's offset. */
export function parseSignature(line: string): Signature {
  const match = /^(.*) <([^>]*)> (\d+) ([+-])(\d\d)(\d\d)$/.exec(line);
  if (!match) return { name: line, email: '', date: new Date(0).toISOString() };
  const [, name, email, seconds, sign, hh, mm] = match;
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm));
  const local = new Date(Number(seconds) * 1000 + offsetMinutes * 60_000).toISOString().replace(/\.\d{3}Z$/, '');
  return { name, email, date: `${local}${sign}${hh}:${mm}` };
}

/** Splits a commit or tag object into its headers and its message. */
function splitObject(body: Buffer): { headers: Map<string, string[]>; message: string } {
  const text = body.toString('utf8');
  const end = text.indexOf('\n\n');
  const head = end < 0 ? text : text.slice(0, end);
  const headers = new Map<string, string[]>();
  for (const line of head.split('\n')) {
    if (line.startsWith(' ')) continue; // continuation of a multi-line header (gpgsig)
    const space = line.indexOf(' ');
    const name = line.slice(0, space);
    headers.set(name, [...(headers.get(name) ?? []), line.slice(space + 1)]);
  }
  return { headers, message: end < 0 ? '' : text.slice(end + 2) };
}

export function parseCommit(oid: string, body: Buffer): Commit {
  const { headers, message } = splitObject(body);
  return {
    id: oid,
    parentIds: headers.get('parent') ?? [],
    treeId: headers.get('tree')?.[0] ?? '',
    message,
    author: parseSignature(headers.get('author')?.[0] ?? ''),
    committer: parseSignature(headers.get('committer')?.[0] ?? ''),
  };
}

/** An annotated tag object: what it points at and its message. */
export function parseTag(body: Buffer): { object: string; type: string; message: string } {
  const { headers, message } = splitObject(body);
  // A signed tag's signature follows the message.
  const signature = message.indexOf('-----BEGIN PGP SIGNATURE-----');
  return {
    object: headers.get('object')?.[0] ?? '',
    type: headers.get('type')?.[0] ?? '',
    message: signature >= 0 ? message.slice(0, signature) : message,
  };
}

/** An annotated tag's message as GitLab showed it: gitlab_git chomped one trailing newline. */
export const tagMessage = (tag: { message: string }) => tag.message.replace(/\n$/, '');

/** The commits of `oids`, in order; a sha that is not a commit is skipped. */
export async function readCommits(repo: string, oids: string[], start?: StartGit): Promise<Commit[]> {
  const objects = await readObjects(repo, oids, start);
  return objects
    .filter((o): o is RawObject => o !== null && o.type === 'commit')
    .map((o) => parseCommit(o.oid, o.body));
}

/** The commit a validated ref names, read in the warm reader in one round trip (resolved and read together), or null. */
export async function commitNamed(reader: ObjectReader, ref: string): Promise<Commit | null> {
  const object = await reader.contents(`${ref}^{commit}`);
  return object && object.type === 'commit' ? parseCommit(object.oid, Buffer.concat(object.parts)) : null;
}

/** The commits of `oids` read in the warm reader (requests pipelined, answered in order); a sha that is not a commit is skipped. */
export async function readCommitsFrom(reader: ObjectReader, oids: string[]): Promise<Commit[]> {
  const objects = await Promise.all(oids.map((oid) => reader.contents(oid)));
  return objects
    .filter((o) => o !== null && o.type === 'commit')
    .map((o) => parseCommit(o!.oid, Buffer.concat(o!.parts)));
}
