import { createHash, createPublicKey } from 'node:crypto';
import { FieldErrorCollector, type FieldErrors } from '@hub/common';

/**
 * OpenSSH public keys as GitLab 7.14 took them (app/models/key.rb): the text is kept as given,
 * whitespace around it trimmed, and its fingerprint is what `ssh-keygen -l -E md5` prints for it
 * (lib/gitlab/key_fingerprint.rb). GitLab ran ssh-keygen; this parses the key itself and refuses
 * what ssh-keygen (OpenSSH 9) refuses, so "cannot be generated" means the same thing.
 */

export const KEY_ALGORITHMS = [
  'ssh-rsa',
  'ssh-dss',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'ssh-ed25519',
] as const;
export type KeyAlgorithm = (typeof KEY_ALGORITHMS)[number];

const CURVES: Record<string, { jwk: string; fieldBytes: number }> = {
  nistp256: { jwk: 'P-256', fieldBytes: 32 },
  nistp384: { jwk: 'P-384', fieldBytes: 48 },
  nistp521: { jwk: 'P-521', fieldBytes: 66 },
};

// OpenSSH's limits: RSA moduli of 1024 to 16384 bits (smaller ones are refused since 7.2), and
// no bignum longer than 16384 bits.
const MIN_RSA_BITS = 1024;
const MAX_BIGNUM_BYTES = 2048;
const ED25519_KEY_BYTES = 32;

export const MAX_TITLE_LENGTH = 255;
export const MAX_KEY_LENGTH = 5000;

/** The parts of an SSH wire-format blob (RFC 4251 string and mpint), read in order. */
class BlobReader {
  private offset = 0;
  constructor(private readonly blob: Buffer) {}

  string(): Buffer | null {
    if (this.offset + 4 > this.blob.length) return null;
    const length = this.blob.readUInt32BE(this.offset);
    const start = this.offset + 4;
    if (start + length > this.blob.length) return null;
    this.offset = start + length;
    return this.blob.subarray(start, start + length);
  }

  /** A non-negative mpint's magnitude without leading zeros, as OpenSSH reads (and re-writes) it. */
  mpint(): Buffer | null {
    const raw = this.string();
    if (!raw || raw.length > MAX_BIGNUM_BYTES + 1 || (raw.length > 0 && raw[0] & 0x80)) return null;
    let start = 0;
    while (start < raw.length && raw[start] === 0) start++;
    const magnitude = raw.subarray(start);
    return magnitude.length > MAX_BIGNUM_BYTES ? null : magnitude;
  }

  get done(): boolean {
    return this.offset === this.blob.length;
  }
}

const wireString = (value: Buffer | string) => {
  const bytes = typeof value === 'string' ? Buffer.from(value) : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
};
const wireMpint = (magnitude: Buffer) =>
  wireString(magnitude.length > 0 && magnitude[0] & 0x80 ? Buffer.concat([Buffer.from([0]), magnitude]) : magnitude);

const bitLength = (magnitude: Buffer) =>
  magnitude.length === 0 ? 0 : (magnitude.length - 1) * 8 + (32 - Math.clz32(magnitude[0]));

/** Strict base64, as OpenSSH decodes it: padded, no stray characters, no bits past the data. */
function decodeBase64(text: string): Buffer | null {
  if (!text || !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

function isOnCurve(curve: { jwk: string; fieldBytes: number }, point: Buffer): boolean {
  // Uncompressed only: that is what OpenSSH writes, and it refuses compressed points.
  if (point.length !== 1 + 2 * curve.fieldBytes || point[0] !== 0x04) return false;
  const x = point.subarray(1, 1 + curve.fieldBytes).toString('base64url');
  const y = point.subarray(1 + curve.fieldBytes).toString('base64url');
  try {
    createPublicKey({ key: { kty: 'EC', crv: curve.jwk, x, y }, format: 'jwk' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The blob as OpenSSH re-encodes it after reading (mpints without leading zeros), or null when
 * OpenSSH would not read it: an unknown algorithm, a blob of another algorithm than the text
 * names, missing or extra bytes, an RSA modulus under 1024 bits, a point off its curve.
 */
function canonicalBlob(algorithm: string, blob: Buffer): Buffer | null {
  const reader = new BlobReader(blob);
  if (reader.string()?.toString('latin1') !== algorithm) return null;
  let canonical: Buffer | null = null;
  if (algorithm === 'ssh-rsa') {
    const e = reader.mpint();
    const n = reader.mpint();
    if (e && n && bitLength(n) >= MIN_RSA_BITS)
      canonical = Buffer.concat([wireString(algorithm), wireMpint(e), wireMpint(n)]);
  } else if (algorithm === 'ssh-dss') {
    const parts = [reader.mpint(), reader.mpint(), reader.mpint(), reader.mpint()];
    if (parts.every((part) => part !== null))
      canonical = Buffer.concat([wireString(algorithm), ...parts.map((part) => wireMpint(part!))]);
  } else if (algorithm === 'ssh-ed25519') {
    const key = reader.string();
    if (key?.length === ED25519_KEY_BYTES) canonical = Buffer.concat([wireString(algorithm), wireString(key)]);
  } else if (algorithm.startsWith('ecdsa-sha2-')) {
    const name = algorithm.slice('ecdsa-sha2-'.length);
    const curve = CURVES[name];
    const inner = reader.string()?.toString('latin1');
    const point = reader.string();
    if (curve && inner === name && point && isOnCurve(curve, point))
      canonical = Buffer.concat([wireString(algorithm), wireString(name), wireString(point)]);
  }
  return canonical && reader.done ? canonical : null;
}

export interface PublicKey {
  algorithm: KeyAlgorithm;
  /** The key blob as OpenSSH encodes it: what the fingerprint is taken of. */
  blob: Buffer;
  comment: string;
}

/** One `algorithm base64 [comment]` line, separated by spaces or tabs; null unless OpenSSH reads it. */
export function parsePublicKey(line: string): PublicKey | null {
  const match = /^[ \t]*([^ \t]+)[ \t]+([^ \t]+)(?:[ \t]+(.*))?$/s.exec(line);
  if (!match) return null;
  const [, algorithm, base64, comment = ''] = match;
  if (!(KEY_ALGORITHMS as readonly string[]).includes(algorithm)) return null;
  const decoded = decodeBase64(base64);
  const blob = decoded && canonicalBlob(algorithm, decoded);
  return blob ? { algorithm: algorithm as KeyAlgorithm, blob, comment: comment.trim() } : null;
}

/** MD5 of the blob in colon-separated lower-case hex: `ssh-keygen -l -E md5` without its "MD5:". */
export const md5Fingerprint = (blob: Buffer) =>
  createHash('md5')
    .update(blob)
    .digest('hex')
    .replace(/(..)(?!$)/g, '$1:');

/**
 * GitLab's Key#fingerprint: what ssh-keygen printed for the text written to a file, null when it
 * printed nothing. ssh-keygen reads a file line by line and skips lines it cannot read, so the
 * first readable line counts.
 */
export function fingerprintOf(text: string): string | null {
  for (const line of text.split(/\r?\n|\r/)) {
    const key = parsePublicKey(line);
    if (key) return md5Fingerprint(key.blob);
  }
  return null;
}

const STRIPPED = new Set(['\t', '\n', '\v', '\f', '\r', ' ', '\0']);

/**
 * Ruby's String#strip: ASCII whitespace and NUL, not the Unicode spaces JavaScript's trim takes.
 * A scan from both ends, not a `[…]+$` pattern: that one backtracks over every run of spaces
 * inside the text (seconds for a body of mostly spaces).
 */
export function stripKey(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && STRIPPED.has(text[start])) start++;
  while (end > start && STRIPPED.has(text[end - 1])) end--;
  return text.slice(start, end);
}

/** Rails' blank?: nothing but whitespace. */
export const isBlank = (value: string | null | undefined) =>
  value === undefined || value === null || /^\s*$/u.test(value);

export interface KeyAttributes {
  title?: string | null;
  key?: string | null;
}

/** A key as it would be stored: the stripped text and its fingerprint (null: none could be made). */
export interface PreparedKey {
  title: string | null;
  key: string | null;
  fingerprint: string | null;
}

/**
 * More than `max` characters, counted as Rails did (code points). Each is one or two UTF-16 units,
 * so a text of megabytes is known to be too long without walking it.
 */
const longerThan = (text: string, max: number) =>
  text.length > max && (text.length > 2 * max || Array.from(text).length > max);

/** Longer than Key's length validation allows: no stored key can be this text. */
export const isTooLongKey = (key: string | null) => key !== null && longerThan(key, MAX_KEY_LENGTH);

/**
 * Key's before_validation: strip the text, then fingerprint it. A text over MAX_KEY_LENGTH is
 * refused whatever its fingerprint, so only its first MAX_KEY_LENGTH characters are read for one:
 * parsing every line of a body of megabytes (each an EC point check) would hold the event loop
 * for seconds. The messages stay GitLab's as long as a readable line starts within that prefix.
 */
export function prepareKey(attrs: KeyAttributes): PreparedKey {
  const key = isBlank(attrs.key) ? (attrs.key ?? null) : stripKey(attrs.key!);
  if (key === null || isBlank(key)) return { title: attrs.title ?? null, key, fingerprint: null };
  const scanned = isTooLongKey(key)
    ? Array.from(key.slice(0, 2 * MAX_KEY_LENGTH))
        .slice(0, MAX_KEY_LENGTH)
        .join('')
    : key;
  return { title: attrs.title ?? null, key, fingerprint: fingerprintOf(scanned) };
}

/**
 * Key's validations in GitLab 7.14's order and words. `taken` says whether another key has the
 * same text or fingerprint (the uniqueness validations, which need the database).
 */
export function keyValidation(
  prepared: PreparedKey,
  taken: { key: boolean; fingerprint: boolean },
): FieldErrorCollector {
  const errors = new FieldErrorCollector();
  const { title, key, fingerprint } = prepared;

  if (isBlank(title)) errors.add('title', "can't be blank");
  else if (longerThan(title!, MAX_TITLE_LENGTH))
    errors.add('title', `is too long (maximum is ${MAX_TITLE_LENGTH} characters)`);

  const text = key ?? '';
  if (isBlank(key)) errors.add('key', "can't be blank");
  if (isTooLongKey(text)) errors.add('key', `is too long (maximum is ${MAX_KEY_LENGTH} characters)`);
  // Ruby's /\A(ssh|ecdsa)-.*\Z/: Ruby's `.` stops at a newline only, \Z allows one final newline.
  if (!/^(ssh|ecdsa)-[^\n]*\n?$/.test(text)) errors.add('key', 'is invalid');
  if (taken.key) errors.add('key', 'has already been taken');
  if (/\n|\r/.test(text)) errors.add('key', 'should be a single line');

  if (taken.fingerprint) errors.add('fingerprint', 'has already been taken');
  if (!fingerprint) errors.add('fingerprint', 'cannot be generated');
  return errors;
}

/** The problems `keyValidation` finds, per field; empty when the key is valid. */
export const keyValidationErrors = (
  prepared: PreparedKey,
  taken: { key: boolean; fingerprint: boolean },
): FieldErrors => keyValidation(prepared, taken).errors;
