import { generateKeyPairSync } from 'node:crypto';

/** One field of an SSH key's wire form: its length (4 bytes, big-endian), then its bytes. */
export const wire = (value: Buffer | string) => {
  const bytes = Buffer.from(value);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
};

/**
 * About 9 MiB of ECDSA lines whose points are off their curve (each costs a point check to
 * refuse), with a long run of spaces inside: text that identity must refuse without reading it.
 * The e2e tests check the refusal (keys.test.ts), the bench its time (bench/scenarios/huge-keys.ts).
 */
export function hugeKeyText(): string {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
  point[40] ^= 1;
  const line = `ecdsa-sha2-nistp384 ${Buffer.concat([wire('ecdsa-sha2-nistp384'), wire('nistp384'), wire(point)]).toString('base64')} bent`;
  const lines = Array<string>(Math.floor((9 * 1024 * 1024) / (line.length + 1))).fill(line);
  lines[100] += ` ${' '.repeat(100_000)}x`;
  return lines.join('\n');
}
