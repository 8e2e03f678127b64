import { spawnGit, type GitProcess, type StartGit } from '../git/run';
import type { FoundBlob } from './find-blob';

/** How many leading bytes decide whether a blob is text (git's own heuristic looks at 8000). */
const SNIFF = 8000;
/** Blobs up to this size come from the warm reader; larger ones stream from their own process. */
const READER_LIMIT = 1024 * 1024;

/** Text unless a NUL shows up in the first SNIFF bytes. */
export const isText = (head: Buffer) => !head.subarray(0, SNIFF).includes(0);

/** The first SNIFF bytes of an object read in parts. */
const headOf = (parts: Buffer[]) => {
  const head: Buffer[] = [];
  for (let length = 0, i = 0; i < parts.length && length < SNIFF; i++) {
    head.push(parts[i]);
    length += parts[i].length;
  }
  return head.length === 1 ? head[0] : Buffer.concat(head);
};

/**
 * A blob's bytes, however they are sent: whole from the warm reader (its pipe's reads, up to 64 KiB
 * each) up to READER_LIMIT, or from a `git cat-file blob` of its own beyond, so that a blob of any
 * size never sits whole in memory. A large blob's text flag is decided on its first chunk.
 */
export async function blobBytes(
  found: FoundBlob,
  start: StartGit,
): Promise<{ parts: Buffer[]; text: boolean } | { process: GitProcess }> {
  if (found.info.size <= READER_LIMIT) {
    const parts = (await found.reader.contents(found.info.oid))?.parts ?? [];
    return { parts, text: isText(headOf(parts)) };
  }
  return { process: spawnGit(found.repo, ['cat-file', 'blob', found.info.oid], {}, { start }) };
}
