// A server-side serializer for the streamed byte messages (blob chunks).
import type { ServiceDefinition } from '@grpc/grpc-js';

/**
 * The largest encoding kept in the shared scratch buffer; a larger message is encoded by
 * protobufjs as before (nothing that size is sent today: the worker's messages are 32 KiB to a
 * few hundred).
 */
const SCRATCH_LIMIT = 1024 * 1024;

/**
 * The buffer the serializers of one service share, owned by the service they wrap rather than the
 * module: allocated on first use, its pages touched only as far as the largest message written.
 */
const createScratch = () => {
  let buffer: Buffer | null = null;
  return () => (buffer ??= Buffer.allocUnsafeSlow(SCRATCH_LIMIT));
};

const varintLength = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);

function writeVarint(target: Buffer, at: number, n: number): number {
  while (n >= 0x80) {
    target[at++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  target[at++] = n;
  return at;
}

/** Whether `value` sets `data` to bytes and nothing else (a oneof's other member, another field). */
function onlyBytes(value: unknown): value is { data: Buffer } {
  if (typeof value !== 'object' || value === null) return false;
  const data = (value as { data?: unknown }).data;
  if (!Buffer.isBuffer(data) || data.length === 0) return false;
  for (const key in value) if (key !== 'data' && (value as Record<string, unknown>)[key] != null) return false;
  return true;
}

/**
 * `{ data }` encoded into one scratch buffer shared by every call (every method of one service
 * `withBytesSerializers` wraps shares one), instead of a new buffer per
 * message from protobufjs. A 1 MiB blob sent in 32 KiB messages made three copies of itself in
 * new ArrayBuffers (the pipe's reads, protobufjs's encoding, grpc-js's frame); their external
 * memory set off full collections every ~120 ms, half of the worker's CPU at 32 downloads.
 *
 * The returned view is valid until the next call: grpc-js copies a serialized response into its
 * frame before it returns to the handler (server-interceptors' serializeMessage), and nothing else
 * runs in between. The git worker's streaming tests would see a chunk overwritten if that changed.
 */
export function bytesMessageSerializer(
  fieldNumber: number,
  fallback: (value: unknown) => Buffer,
  scratchOf: () => Buffer = createScratch(),
): (value: unknown) => Buffer {
  const tag = (fieldNumber << 3) | 2; // length-delimited
  if (tag >= 0x80) throw new Error(`field ${fieldNumber} needs a tag of more than one byte`);
  return (value) => {
    if (!onlyBytes(value)) return fallback(value);
    const { data } = value;
    const size = 1 + varintLength(data.length) + data.length;
    if (size > SCRATCH_LIMIT) return fallback(value);
    const scratch = scratchOf();
    scratch[0] = tag;
    const at = writeVarint(scratch, 1, data.length);
    data.copy(scratch, at);
    return scratch.subarray(0, at + data.length);
  };
}

interface FieldDescriptor {
  name: string;
  number: number;
  type: string;
}

/** The number of a message's `bytes data` field, from the descriptor proto-loader keeps. */
function bytesDataField(responseType: unknown): number | null {
  const fields = (responseType as { type?: { field?: FieldDescriptor[] } } | undefined)?.type?.field ?? [];
  const data = fields.find((field) => field.name === 'data' && field.type === 'TYPE_BYTES');
  return data ? data.number : null;
}

/**
 * The service with the scratch serializer on every server-streaming method whose response has a
 * `bytes data` field; every other method, and every other message of those, keeps protobufjs.
 */
export function withBytesSerializers<S extends ServiceDefinition>(service: S): S {
  const scratch = createScratch();
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(service)) {
    const field = method.responseStream ? bytesDataField((method as { responseType?: unknown }).responseType) : null;
    wrapped[name] =
      field === null
        ? method
        : {
            ...method,
            responseSerialize: bytesMessageSerializer(
              field,
              method.responseSerialize as (value: unknown) => Buffer,
              scratch,
            ),
          };
  }
  return wrapped as S;
}
