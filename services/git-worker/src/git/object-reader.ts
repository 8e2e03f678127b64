import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { TreeDiffer } from './tree-differ';

export interface ObjectInfo {
  oid: string;
  type: string;
  size: number;
}
export interface GitObject extends ObjectInfo {
  /**
   * The object's bytes as the pipe delivered them (views of its chunks, in order): a blob is sent
   * on piece by piece, so it is never copied into one buffer here.
   */
  parts: Buffer[];
}

interface Pending {
  kind: 'info' | 'contents';
  resolve: (value: GitObject | ObjectInfo | null) => void;
  reject: (error: Error) => void;
}

/** The object being read: its header is parsed, `remaining` counts its bytes and the newline after them. */
interface Body {
  pending: Pending;
  object: GitObject;
  remaining: number;
}

/**
 * Parses `cat-file --batch-command` output as it arrives, answering requests in the order they
 * were written: header lines, then each object's bytes kept as views of the chunks they came in
 * (no concatenation, whatever the chunk boundaries).
 */
export class BatchParser {
  private readonly queue: Pending[] = [];
  /** Bytes of a header line whose newline has not arrived yet. */
  private head: Buffer = Buffer.alloc(0);
  private body: Body | null = null;

  /** The answer to the next request written to cat-file. */
  expect(kind: Pending['kind']): Promise<GitObject | ObjectInfo | null> {
    return new Promise((resolve, reject) => this.queue.push({ kind, resolve, reject }));
  }

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.body) {
        const take = Math.min(this.body.remaining, chunk.length - at);
        // The last byte of a body is the newline cat-file prints after the object.
        const data = Math.min(take, this.body.remaining - 1);
        if (data > 0) this.body.object.parts.push(chunk.subarray(at, at + data));
        at += take;
        this.body.remaining -= take;
        if (this.body.remaining === 0) {
          const { pending, object } = this.body;
          this.body = null;
          pending.resolve(object);
        }
        continue;
      }
      const eol = chunk.indexOf(0x0a, at);
      if (eol < 0) {
        this.head = Buffer.concat([this.head, chunk.subarray(at)]);
        return;
      }
      const line = (
        this.head.length ? Buffer.concat([this.head, chunk.subarray(at, eol)]) : chunk.subarray(at, eol)
      ).toString('utf8');
      this.head = Buffer.alloc(0);
      at = eol + 1;
      this.answer(line);
    }
  }

  /** Every request still waiting fails (cat-file went away). */
  fail(error: Error): void {
    const waiting = [...(this.body ? [this.body.pending] : []), ...this.queue.splice(0)];
    this.body = null;
    for (const pending of waiting) pending.reject(error);
  }

  /** A header line answers the oldest request: missing, an object's info, or the start of its bytes. */
  private answer(header: string): void {
    const pending = this.queue.shift();
    if (!pending) return;
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) return pending.resolve(null);
    const [oid, type, size] = header.split(' ');
    const info = { oid, type, size: Number(size) };
    if (pending.kind === 'info') return pending.resolve(info);
    this.body = { pending, object: { ...info, parts: [] }, remaining: info.size + 1 };
  }
}

/**
 * One long-lived `git cat-file --batch-command` per repository: an object lookup or read is a line
 * written to a warm process instead of a new process (hot reads cost a round trip, not a fork).
 * Object names come validated (no line breaks); batch input is never parsed as options.
 */
export class ObjectReader {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly parser = new BatchParser();
  private closed = false;
  lastUsed = Date.now();

  constructor(
    readonly repo: string,
    onExit: () => void,
  ) {
    this.child = spawn('git', ['-c', 'safe.directory=*', 'cat-file', '--batch-command'], {
      cwd: repo,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' },
    });
    this.child.stdout.on('data', (chunk: Buffer) => this.parser.push(chunk));
    this.child.stderr.resume();
    const fail = () => {
      this.closed = true;
      this.parser.fail(new Error('git cat-file exited'));
      onExit();
    };
    this.child.on('exit', fail);
    this.child.on('error', fail);
    this.child.stdin.on('error', () => {});
  }

  info(name: string): Promise<ObjectInfo | null> {
    return this.request('info', name) as Promise<ObjectInfo | null>;
  }

  contents(name: string): Promise<GitObject | null> {
    return this.request('contents', name) as Promise<GitObject | null>;
  }

  close(): void {
    if (!this.closed) this.child.stdin.end();
    this.closed = true;
  }

  private request(kind: Pending['kind'], name: string): Promise<GitObject | ObjectInfo | null> {
    if (this.closed) return Promise.reject(new Error('object reader closed'));
    if (/[\n\r\0]/.test(name)) return Promise.resolve(null);
    this.lastUsed = Date.now();
    const answer = this.parser.expect(kind);
    this.child.stdin.write(`${kind} ${name}\n`);
    return answer;
  }
}

/**
 * The warm git processes of each repository: a reader, and a tree differ for compares (started on
 * its first diff). Closed when idle and bounded in number (least recently used goes first); a
 * repository evicted loses both.
 */
export function createReaderPool(options: { max?: number; idleMs?: number } = {}) {
  const max = options.max ?? 64;
  const idleMs = options.idleMs ?? 30_000;
  const readers = new Map<string, ObjectReader>();
  const differs = new Map<string, TreeDiffer>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [repo, reader] of readers) if (now - reader.lastUsed > idleMs) evict(repo);
    for (const [repo, differ] of differs) if (now - differ.lastUsed > idleMs) closeDiffer(repo);
  }, idleMs);
  sweep.unref();

  function closeDiffer(repo: string) {
    differs.get(repo)?.close();
    differs.delete(repo);
  }

  function evict(repo: string) {
    readers.get(repo)?.close();
    readers.delete(repo);
    closeDiffer(repo);
  }

  const oldest = <T extends { lastUsed: number }>(map: Map<string, T>) =>
    [...map].sort(([, a], [, b]) => a.lastUsed - b.lastUsed)[0][0];

  return {
    get(repo: string): ObjectReader {
      let reader = readers.get(repo);
      if (!reader) {
        if (readers.size >= max) evict(oldest(readers));
        const created: ObjectReader = new ObjectReader(
          repo,
          () => readers.get(repo) === created && readers.delete(repo),
        );
        reader = created;
        readers.set(repo, reader);
      }
      return reader;
    },
    differ(repo: string): TreeDiffer {
      let differ = differs.get(repo);
      if (!differ) {
        if (differs.size >= max) closeDiffer(oldest(differs));
        differ = new TreeDiffer(repo);
        differs.set(repo, differ);
      }
      return differ;
    },
    evict,
    close() {
      clearInterval(sweep);
      for (const repo of new Set([...readers.keys(), ...differs.keys()])) evict(repo);
    },
  };
}

export type ReaderPool = ReturnType<typeof createReaderPool>;

/** A tree object's entries (binary format: `<mode> <name>\0<20-byte oid>`), as ls-tree shows them. */
export function parseTree(data: Buffer): Array<{ mode: string; type: string; id: string; name: string }> {
  const entries = [];
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const nul = data.indexOf(0x00, space);
    const mode = data.subarray(at, space).toString('latin1').padStart(6, '0');
    const name = data.subarray(space + 1, nul).toString('utf8');
    const id = data.subarray(nul + 1, nul + 21).toString('hex');
    at = nul + 21;
    const type = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    entries.push({ mode, type, id, name });
  }
  return entries;
}
