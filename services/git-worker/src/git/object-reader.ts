import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface ObjectInfo {
  oid: string;
  type: string;
  size: number;
}
export interface GitObject extends ObjectInfo {
  data: Buffer;
}

interface Pending {
  kind: 'info' | 'contents';
  resolve: (value: GitObject | ObjectInfo | null) => void;
  reject: (error: Error) => void;
}

/**
 * One long-lived `git cat-file --batch-command` per repository: an object lookup or read is a line
 * written to a warm process instead of a new process (hot reads cost a round trip, not a fork).
 * Requests are answered in order. Object names come validated (no line breaks); batch input is
 * never parsed as options.
 */
export class ObjectReader {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly queue: Pending[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  private chunks: Buffer[] = [];
  private received = 0;
  /** Bytes the head of the queue needs before it can be answered (0: a header line will do). */
  private needed = 0;
  private closed = false;
  lastUsed = Date.now();

  constructor(readonly repo: string, onExit: () => void) {
    this.child = spawn('git', ['-c', 'safe.directory=*', 'cat-file', '--batch-command'], { cwd: repo, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' } });
    this.child.stdout.on('data', (chunk: Buffer) => {
      // Chunks wait in a list until an answer is complete: one concatenation per answer, not per chunk.
      this.chunks.push(chunk);
      this.received += chunk.length;
      if (this.received >= this.needed) this.drain();
    });
    this.child.stderr.resume();
    const fail = () => {
      this.closed = true;
      for (const pending of this.queue.splice(0)) pending.reject(new Error('git cat-file exited'));
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
    return new Promise((resolve, reject) => {
      this.queue.push({ kind, resolve, reject });
      this.child.stdin.write(`${kind} ${name}\n`);
    });
  }

  private drain(): void {
    if (this.chunks.length) {
      this.buffer = Buffer.concat([this.buffer, ...this.chunks]);
      this.chunks = [];
    }
    this.needed = 0;
    while (this.queue.length) {
      const eol = this.buffer.indexOf(0x0a);
      if (eol < 0) return;
      const header = this.buffer.subarray(0, eol).toString('utf8');
      const pending = this.queue[0];
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.buffer = this.buffer.subarray(eol + 1);
        this.queue.shift();
        pending.resolve(null);
        continue;
      }
      const [oid, type, size] = header.split(' ');
      const info = { oid, type, size: Number(size) };
      if (pending.kind === 'info') {
        this.buffer = this.buffer.subarray(eol + 1);
        this.queue.shift();
        pending.resolve(info);
        continue;
      }
      const end = eol + 1 + info.size;
      if (this.buffer.length < end + 1) {
        // The object and its trailing newline are not all here yet.
        this.needed = end + 1;
        this.received = this.buffer.length;
        return;
      }
      const data = Buffer.from(this.buffer.subarray(eol + 1, end));
      this.buffer = this.buffer.subarray(end + 1);
      this.queue.shift();
      pending.resolve({ ...info, data });
    }
  }
}

/** Readers per repository, closed when idle and bounded in number (least recently used goes first). */
export function createReaderPool(options: { max?: number; idleMs?: number } = {}) {
  const max = options.max ?? 64;
  const idleMs = options.idleMs ?? 30_000;
  const readers = new Map<string, ObjectReader>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [repo, reader] of readers) if (now - reader.lastUsed > idleMs) evict(repo);
  }, idleMs);
  sweep.unref();

  function evict(repo: string) {
    readers.get(repo)?.close();
    readers.delete(repo);
  }

  return {
    get(repo: string): ObjectReader {
      let reader = readers.get(repo);
      if (!reader) {
        if (readers.size >= max) {
          const oldest = [...readers.values()].sort((a, b) => a.lastUsed - b.lastUsed)[0];
          evict(oldest.repo);
        }
        const created: ObjectReader = new ObjectReader(repo, () => readers.get(repo) === created && readers.delete(repo));
        reader = created;
        readers.set(repo, reader);
      }
      return reader;
    },
    evict,
    close() {
      clearInterval(sweep);
      for (const repo of [...readers.keys()]) evict(repo);
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
