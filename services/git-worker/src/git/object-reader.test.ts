import { BatchParser, type GitObject } from './object-reader';

const oid = (c: string) => c.repeat(40);

/** What cat-file --batch-command prints for: info A, contents B, contents missing, contents an empty blob. */
const body = Buffer.from('line one\nline two\n\0binary');
const output = Buffer.concat([
  Buffer.from(`${oid('a')} tree 123\n`),
  Buffer.from(`${oid('b')} blob ${body.length}\n`),
  body,
  Buffer.from('\n'),
  Buffer.from('master:nope missing\n'),
  Buffer.from(`${oid('c')} blob 0\n\n`),
]);

async function parseInChunks(chunks: Buffer[]) {
  const parser = new BatchParser();
  const answers = [
    parser.expect('info'),
    parser.expect('contents'),
    parser.expect('contents'),
    parser.expect('contents'),
  ];
  for (const chunk of chunks) parser.push(chunk);
  return Promise.all(answers);
}

describe('BatchParser', () => {
  it('answers requests in order, whatever the chunk boundaries (every split point, and byte by byte)', async () => {
    const splits = [
      ...Array.from({ length: output.length + 1 }, (_, at) => [output.subarray(0, at), output.subarray(at)]),
      [...output].map((byte) => Buffer.from([byte])),
    ];
    for (const chunks of splits) {
      const [info, blob, missing, empty] = await parseInChunks(chunks);
      expect(info).toEqual({ oid: oid('a'), type: 'tree', size: 123 });
      expect(Buffer.concat((blob as GitObject).parts).equals(body)).toBe(true);
      expect(blob).toMatchObject({ oid: oid('b'), type: 'blob', size: body.length });
      expect(missing).toBeNull();
      expect(empty).toMatchObject({ oid: oid('c'), size: 0, parts: [] });
    }
  });

  it('keeps an object as views of the chunks it arrived in, not a copy', async () => {
    const chunk = Buffer.concat([Buffer.from(`${oid('b')} blob ${body.length}\n`), body, Buffer.from('\n')]);
    const parser = new BatchParser();
    const answer = parser.expect('contents');
    parser.push(chunk);
    const { parts } = (await answer) as GitObject;
    expect(parts).toHaveLength(1);
    expect(parts[0].buffer).toBe(chunk.buffer);
  });

  it('fails every waiting request when cat-file goes away, the one being read too', async () => {
    const parser = new BatchParser();
    const reading = parser.expect('contents');
    const waiting = parser.expect('info');
    parser.push(Buffer.from(`${oid('b')} blob 10\nabc`));
    parser.fail(new Error('git cat-file exited'));
    await expect(reading).rejects.toThrow('exited');
    await expect(waiting).rejects.toThrow('exited');
  });
});
