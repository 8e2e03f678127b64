import fc from 'fast-check';
import { bytesMessageSerializer, withBytesSerializers } from './bytes-serializer';
import { loadGitProtos } from './load';

const protos = loadGitProtos();
const blobService = protos.BlobService.service;
const blob = blobService.GetBlob;
const fast = withBytesSerializers(blobService);

/** A serializer's answer copied at once, as grpc-js copies it into its frame. */
const encoded = (serialize: (value: never) => Buffer, value: unknown) => Buffer.from(serialize(value as never));

describe('withBytesSerializers', () => {
  it('encodes { data } exactly as protobufjs does, for blob messages of any size', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 70_000 }), (bytes) => {
        const data = Buffer.from(bytes);
        expect(encoded(fast.GetBlob.responseSerialize, { data })).toEqual(encoded(blob.responseSerialize, { data }));
        expect(blob.responseDeserialize(encoded(fast.GetBlob.responseSerialize, { data })).data).toEqual(data);
      }),
      { numRuns: 200 },
    );
  });

  it('leaves every other message to protobufjs: metadata, empty bytes, bytes beside another field, more than the scratch holds', () => {
    const cases = [
      { info: { oid: 'a'.repeat(40), size: 3, text: true, commitId: '' } },
      { data: Buffer.alloc(0) },
      { data: Buffer.from('abc'), info: { oid: 'b'.repeat(40), size: 3, text: false, commitId: '' } },
      { data: Buffer.alloc(2 * 1024 * 1024, 7) },
    ];
    for (const value of cases)
      expect(encoded(fast.GetBlob.responseSerialize, value)).toEqual(encoded(blob.responseSerialize, value));
    const large = blob.responseDeserialize(encoded(fast.GetBlob.responseSerialize, cases[3]));
    expect(large.data?.length).toBe(2 * 1024 * 1024);
  });

  it('only streamed responses with a bytes data field get it; requests and other methods keep theirs', () => {
    expect(fast.GetBlob.responseSerialize).not.toBe(blob.responseSerialize);
    expect(fast.GetTreeEntries).toBe(blobService.GetTreeEntries);
    expect(fast.GetBlob.requestSerialize).toBe(blob.requestSerialize);
    const refs = protos.RefService.service;
    expect(withBytesSerializers(refs)).toEqual(refs);
  });

  it('refuses a field number whose tag would not fit one byte', () => {
    expect(() => bytesMessageSerializer(16, () => Buffer.alloc(0))).toThrow(/more than one byte/);
    expect(() => bytesMessageSerializer(15, () => Buffer.alloc(0))).not.toThrow();
  });
});
