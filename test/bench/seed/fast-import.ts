import { createCipheriv } from 'node:crypto';

/**
 * A `git fast-import` stream for the benchmark's repository, the same bytes on every run: fixed
 * authors, fixed dates, content from a keyed AES-CTR stream (incompressible, like real binaries, so
 * archive and clone move real megabytes). Shape:
 * - commit 1: `rootFiles` text files at the root (the tree target) and docs/;
 * - the next `headMiB` commits: one 1 MiB binary each under assets/ (assets/asset-000.bin is the raw blob target);
 * - `historyMiB` commits spread through the middle give an asset its final version (the first versions make the clone bigger than the tree);
 * - every other commit edits one text file (a changed line and an added one), authors in turn;
 * - the last 100 commits (the compare range) touch text files only.
 */
export interface RepositorySpec {
  commits: number;
  rootFiles: number;
  headMiB: number;
  historyMiB: number;
}

export const AUTHORS = [
  ['Ada Lovelace', 'ada@bench.example'],
  ['Grace Hopper', 'grace@bench.example'],
  ['Linus Torvalds', 'linus@bench.example'],
  ['Margaret Hamilton', 'margaret@bench.example'],
  ['Ken Thompson', 'ken@bench.example'],
  ['Barbara Liskov', 'barbara@bench.example'],
  ['Dennis Ritchie', 'dennis@bench.example'],
] as const;

export const MIB = 1024 * 1024;
const EPOCH = 1_400_000_000; // fixed: the same commit ids on every run
export const COMPARE_SPAN = 100;
export const ASSET_PATH = 'assets/asset-000.bin';

/** Deterministic incompressible bytes: AES-128-CTR over zeros with a key and IV derived from `seed`. */
export function noise(seed: number, length: number): Buffer {
  const key = Buffer.alloc(16);
  key.writeUInt32BE(seed >>> 0, 0);
  const cipher = createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
  return cipher.update(Buffer.alloc(length));
}

const data = (body: Buffer | string) => {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return [Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from('\n')];
};

const fileName = (i: number) => `file-${String(i).padStart(3, '0')}.txt`;
const assetName = (i: number) => `assets/asset-${String(i).padStart(3, '0')}.bin`;

/** The stream, in chunks; `refs/heads/master` ends at the last commit. */
export function* fastImportStream(spec: RepositorySpec): Generator<Buffer> {
  if (spec.historyMiB > spec.headMiB || spec.commits < 2 + spec.headMiB + spec.historyMiB + COMPARE_SPAN)
    throw new Error('too few commits for the repository shape');
  const files: string[][] = [];
  for (let f = 0; f < spec.rootFiles; f++) {
    files.push(
      Array.from({ length: 20 }, (_, l) => `${fileName(f)} line ${l}: the quick brown fox jumps over the lazy dog`),
    );
  }
  // Which middle commits rewrite an asset: spread evenly, clear of the first commits and the compare range.
  const first = 2 + spec.headMiB;
  const last = spec.commits - COMPARE_SPAN - 1;
  const rewrites = new Map<number, number>();
  for (let k = 0; k < spec.historyMiB; k++)
    rewrites.set(first + Math.floor(((k + 1) * (last - first)) / (spec.historyMiB + 1)), k);
  let mark = 0;
  for (let c = 1; c <= spec.commits; c++) {
    const [name, email] = AUTHORS[c % AUTHORS.length];
    const when = `${EPOCH + c * 3_600} +0000`;
    const changes: Buffer[] = [];
    let message: string;
    if (c === 1) {
      message = 'Initial tree';
      for (let f = 0; f < spec.rootFiles; f++)
        changes.push(Buffer.from(`M 100644 inline ${fileName(f)}\n`), ...data(files[f].join('\n') + '\n'));
      for (const doc of ['README.md', 'docs/guide.md', 'docs/api.md'])
        changes.push(
          Buffer.from(`M 100644 inline ${doc}\n`),
          ...data(`# ${doc}\n\n${'Benchmark repository. '.repeat(50)}\n`),
        );
    } else if (c < first || rewrites.has(c)) {
      const asset = c < first ? c - 2 : rewrites.get(c)!;
      // An asset rewritten later starts as another version: the old one stays in history only,
      // so the clone is bigger than the head tree, which holds `headMiB` of final versions.
      const seed = c < first && asset < spec.historyMiB ? 100_000 + asset : asset;
      mark++;
      yield Buffer.concat([Buffer.from(`blob\nmark :${mark}\n`), ...data(noise(seed, MIB))]);
      changes.push(Buffer.from(`M 100644 :${mark} ${assetName(asset)}\n`));
      message = `${c < first ? 'Add' : 'Rewrite'} ${assetName(asset)}`;
    } else {
      const f = (c * 37) % spec.rootFiles;
      const lines = files[f];
      lines[c % lines.length] = `${fileName(f)} line ${c % lines.length}: changed in commit ${c} by ${name}`;
      lines.push(`${fileName(f)} added in commit ${c}`);
      changes.push(Buffer.from(`M 100644 inline ${fileName(f)}\n`), ...data(lines.join('\n') + '\n'));
      message = `Edit ${fileName(f)} (${c})`;
    }
    yield Buffer.concat([
      Buffer.from(
        `commit refs/heads/master\nauthor ${name} <${email}> ${when}\ncommitter ${name} <${email}> ${when}\n`,
      ),
      ...data(`${message}\n`),
      ...changes,
      Buffer.from('\n'),
    ]);
  }
}

/**
 * A `git fast-import` stream of one commit whose tree holds `mib` MiB of incompressible files of
 * `fileMiB` each under large/: the archive that must stream without being held (issue 14: a 1 GiB
 * archive with at most 64 MiB of RSS growth). Each file is made as it is written.
 */
export function* largeTreeStream(mib: number, fileMiB = 16): Generator<Buffer> {
  const files = Math.ceil(mib / fileMiB);
  for (let f = 0; f < files; f++) {
    const size = Math.min(fileMiB, mib - f * fileMiB) * MIB;
    yield Buffer.concat([Buffer.from(`blob\nmark :${f + 1}\n`), ...data(noise(500_000 + f, size))]);
  }
  const when = `${EPOCH} +0000`;
  const [name, email] = AUTHORS[0];
  yield Buffer.concat([
    Buffer.from(`commit refs/heads/master\nauthor ${name} <${email}> ${when}\ncommitter ${name} <${email}> ${when}\n`),
    ...data(`${mib} MiB of large files\n`),
    ...Array.from({ length: files }, (_, f) =>
      Buffer.from(`M 100644 :${f + 1} large/part-${String(f).padStart(3, '0')}.bin\n`),
    ),
    Buffer.from('\n'),
  ]);
}
