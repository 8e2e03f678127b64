import { spawnSync } from 'node:child_process';
import { createHash, ECDH, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fingerprintOf,
  keyValidation,
  keyValidationErrors,
  parsePublicKey,
  prepareKey,
  stripKey,
  type KeyAttributes,
} from './ssh-keys';

// Made by ssh-keygen (OpenSSH 9.2), each with what `ssh-keygen -l -E md5 -f` printed for it.
const VECTORS = [
  {
    key: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQDMhaKf3G5KqSUm1+3O8qcvTjqKEwCe9ziBRlxCi8sCERpUp0hTusri4mbh7g58ygLhXddNlwluMmmINlwNxwUb3WzeYLqtMfTVGthv9tHGbHR4/ACFvrRuklu+ynpmtZA4mwzxeR3atBjuUL7QcKfnyRha+ZYrzS991km4iRwWwQ== rsa@example',
    fingerprint: 'ab:7d:34:e8:cb:31:fd:53:a5:2d:8c:41:ca:c1:dd:f1',
  },
  {
    key: 'ssh-dss AAAAB3NzaC1kc3MAAACBALLdc5X5w6UXtjN0P7Wj71k+1lpgMtyZhqfQZY6zK4w5LOf79OJuHzZHXUdKXmXNmt2WEcrJEg90OWd4lng9vpEmEc7DeelYs2pIJtbiWdxKOthNOmx3OixiVnIG45i0x44kaoP9fhCt2VgaxSdp9HILnM0rXaSkp075amHlRXbvAAAAFQDK0fOuLtewcp11g9l6J1yL6E9YYwAAAIAhYiUCWQdWWs65cVKYdlXxtLpbDN5hrBGRQMr/dqyQ5Rl8oPYsnLYcBPhYXpXtirfYI8w3NseJQ2N+JKy8VPF2oP3SLT/FglXIPlIzCkBR8rDVvtE+EJpNR4eVFS6sDPnCYMnImgrYJo/b+hZoXebIBUXGgcc1HBpJJxMRZRk55QAAAIBn5a7fzL70oifKbSoxC9N02pCabHTuvGln2x8IV5p6BMfFFVjktZDnzEprctIOGhWqVrulYYPwUZb2MZtBwaETUjEj7ooZwW+77TjRvnzfIBII+2f0tr8D44cD5/P/52Zs12t8E7F2W5+ycNx2wYrMUqa2TqiIT7yezMz/WI4CHA== dsa@example',
    fingerprint: '07:a7:3f:5f:8e:35:ce:b4:08:91:b2:8d:c3:3b:18:ad',
  },
  {
    key: 'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBNam37nqx1Z5nWbXMQR+j5hnCirU/jjb/njkcr/OFcOHRhB0iciiLFNBQ6R5bjLyt4d0tdk0f+OTLESnVUoH8Jk= ec256@example',
    fingerprint: 'eb:e7:c8:97:11:99:d5:b1:29:1b:59:54:34:36:03:aa',
  },
  {
    key: 'ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBHc2w94JatoztMQ5IDiNnOeta/GP/aVmM+7RKnbBJZM2YqvJlZIUXovbd6MgXsodYd/+V2J+It8l8J2KUZqplGFbD8+YLVUFsYbz9O2dMoj9rTY7hI3sbTBv9/7qCrT23A== ec384@example',
    fingerprint: '60:73:e3:f2:36:42:ed:75:72:25:94:f3:7e:0a:cb:b1',
  },
  {
    key: 'ecdsa-sha2-nistp521 AAAAE2VjZHNhLXNoYTItbmlzdHA1MjEAAAAIbmlzdHA1MjEAAACFBAAGwNvyPOiCOQRSNT0wF1tNyHsRx3fFw42eQwZcsho3D+IUmRLqLoLkRQu6PeBLEUUvqkVMrgDujYChjY7/I99cjAC+P3IcJD73kjMcjrNP7Ok8huwU82Ya2ftfuJeT25AujaQUD2l2rhGoBa+FFImEwMnMJES4gD8F8PjbtXv0JvOw5A== ec521@example',
    fingerprint: '87:9f:ef:38:f4:61:43:81:03:24:7a:c6:71:ae:59:9c',
  },
  {
    key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBSLsVhyUp3chpjYBgevgZEiGHSF3y0ES0IjQV/o4Y+G ed@example',
    fingerprint: '5a:e5:a9:6b:8e:09:3f:0f:d0:3d:57:c8:23:b8:88:c3',
  },
];

// Blobs built here from Node's keys, independently of the module under test.
const str = (value: Buffer | string) => {
  const bytes = Buffer.from(value);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
};
const mpint = (bytes: Buffer) => str(bytes[0] & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
const b64url = (value: string | undefined) => Buffer.from(value!, 'base64url');
const hexPairs = (digest: Buffer) => Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join(':');
const md5 = (blob: Buffer) => hexPairs(createHash('md5').update(blob).digest());
const line = (type: string, blob: Buffer, comment = 'made@node') => `${type} ${blob.toString('base64')} ${comment}`;

function nodeKeys(): Array<{ type: string; blob: Buffer }> {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
  const ed = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  const ec = (curve: string, name: string) => {
    const jwk = generateKeyPairSync('ec', { namedCurve: curve }).publicKey.export({ format: 'jwk' });
    const point = Buffer.concat([Buffer.from([4]), b64url(jwk.x), b64url(jwk.y)]);
    return { type: `ecdsa-sha2-${name}`, blob: Buffer.concat([str(`ecdsa-sha2-${name}`), str(name), str(point)]) };
  };
  return [
    { type: 'ssh-rsa', blob: Buffer.concat([str('ssh-rsa'), mpint(b64url(rsa.e)), mpint(b64url(rsa.n))]) },
    { type: 'ssh-ed25519', blob: Buffer.concat([str('ssh-ed25519'), str(b64url(ed.x))]) },
    ec('P-256', 'nistp256'),
    ec('P-384', 'nistp384'),
    ec('P-521', 'nistp521'),
  ];
}

/** What ssh-keygen prints for the text, or undefined where there is no ssh-keygen to ask. */
function sshKeygenMd5(text: string): string | null | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'ssh-keys-test-'));
  try {
    writeFileSync(join(dir, 'key.pub'), text + '\n');
    const run = spawnSync('ssh-keygen', ['-l', '-E', 'md5', '-f', join(dir, 'key.pub')], { encoding: 'utf8' });
    if (run.error) return undefined;
    return run.status === 0 ? (/MD5:((?:[0-9a-f]{2}:){15}[0-9a-f]{2})/.exec(run.stdout)?.[1] ?? null) : null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const readBlob = (text: string) => Buffer.from(text.split(' ')[1], 'base64');
/** The strings of a wire-format blob, for tests that rebuild one with a change. */
function fields(blob: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let offset = 0; offset < blob.length;) {
    const length = blob.readUInt32BE(offset);
    out.push(blob.subarray(offset + 4, offset + 4 + length));
    offset += 4 + length;
  }
  return out;
}
const [RSA, DSA, EC256, EC384, , ED25519] = VECTORS;

describe('fingerprintOf', () => {
  it.each(VECTORS.map((v) => [v.key.split(' ')[0], v]))(
    'gives what ssh-keygen printed for a %s key',
    (_type, vector) => {
      expect(fingerprintOf(vector.key)).toBe(vector.fingerprint);
    },
  );

  it('agrees with the MD5 of the blob and with ssh-keygen (where installed) for keys Node makes', () => {
    for (const { type, blob } of nodeKeys()) {
      const text = line(type, blob);
      expect(fingerprintOf(text)).toBe(md5(blob));
      const keygen = sshKeygenMd5(text);
      if (keygen !== undefined) expect(fingerprintOf(text)).toBe(keygen);
    }
  });

  it('takes the key without a comment, and with tabs or several spaces between the parts', () => {
    const [type, base64] = RSA.key.split(' ');
    for (const text of [`${type} ${base64}`, `${type}\t${base64}\tsome comment`, `${type}  ${base64}   two  words `]) {
      expect(fingerprintOf(text)).toBe(RSA.fingerprint);
    }
  });

  it('reads mpints with leading zero bytes as OpenSSH does: the fingerprint is of the re-encoded blob', () => {
    const [type, e, n] = fields(readBlob(RSA.key));
    const padded = Buffer.concat([str(type), str(Buffer.concat([Buffer.from([0, 0]), e])), str(n)]);
    expect(fingerprintOf(line('ssh-rsa', padded))).toBe(RSA.fingerprint);
  });

  it('uses the first line it can read, as ssh-keygen reads a file', () => {
    expect(fingerprintOf(`garbage\n${ED25519.key}\n${RSA.key}`)).toBe(ED25519.fingerprint);
  });

  const [rsaType, , rsaN] = fields(readBlob(RSA.key));
  const [ecType, ecCurve, ecPoint] = fields(readBlob(EC256.key));
  const [edType, edKey] = fields(readBlob(ED25519.key));
  const smallRsa = generateKeyPairSync('rsa', { modulusLength: 768 }).publicKey.export({ format: 'jwk' });
  const offCurve = Buffer.from(ecPoint);
  offCurve[offCurve.length - 1] ^= 1;
  const base64 = RSA.key.split(' ')[1];

  it.each([
    ['an empty text', ''],
    ['a type alone', 'ssh-rsa'],
    ['an unknown type', `ssh-foo ${base64}`],
    ['a type the blob does not carry', `ssh-dss ${base64}`],
    ['an ECDSA blob of another curve than the text names', `ecdsa-sha2-nistp384 ${EC256.key.split(' ')[1]}`],
    [
      'an ECDSA blob naming another curve inside',
      line('ecdsa-sha2-nistp256', Buffer.concat([str(ecType), str('nistp384'), str(ecPoint)])),
    ],
    ['a point off the curve', line('ecdsa-sha2-nistp256', Buffer.concat([str(ecType), str(ecCurve), str(offCurve)]))],
    [
      'a compressed point',
      line(
        'ecdsa-sha2-nistp256',
        Buffer.concat([
          str(ecType),
          str(ecCurve),
          str(ECDH.convertKey(ecPoint, 'prime256v1', undefined, undefined, 'compressed') as Buffer),
        ]),
      ),
    ],
    ['an Ed25519 key of 31 bytes', line('ssh-ed25519', Buffer.concat([str(edType), str(edKey.subarray(1))]))],
    ['bytes after the key', line('ssh-ed25519', Buffer.concat([str(edType), str(edKey), Buffer.from([0, 0, 0, 0])]))],
    ['a truncated blob', line('ssh-rsa', readBlob(RSA.key).subarray(0, 100))],
    ['a negative mpint', line('ssh-rsa', Buffer.concat([str(rsaType), str(Buffer.from([0x81])), str(rsaN)]))],
    [
      'an RSA modulus under 1024 bits',
      line('ssh-rsa', Buffer.concat([str('ssh-rsa'), mpint(b64url(smallRsa.e)), mpint(b64url(smallRsa.n))])),
    ],
    ['a character outside base64', `ssh-rsa ${base64.slice(0, 10)}*${base64.slice(11)}`],
    ['URL-safe base64', `ssh-rsa ${Buffer.from(readBlob(RSA.key)).toString('base64url')}`],
    ['missing padding', `ecdsa-sha2-nistp384 ${EC384.key.split(' ')[1].replace(/=+$/, '')}`],
    ['extra base64 after the blob', `ssh-rsa ${base64}AAAA`],
  ])('refuses %s (ssh-keygen prints nothing)', (_what, text) => {
    expect(fingerprintOf(text)).toBeNull();
    const keygen = sshKeygenMd5(text);
    if (keygen !== undefined) expect(keygen).toBeNull();
  });

  it('keeps the comment apart from the key', () => {
    expect(parsePublicKey(DSA.key)).toMatchObject({ algorithm: 'ssh-dss', comment: 'dsa@example' });
    expect(parsePublicKey(`${rsaType} ${base64}`)?.comment).toBe('');
  });
});

describe('keyValidationErrors', () => {
  const free = { key: false, fingerprint: false };
  const errorsOf = (attrs: KeyAttributes, taken = free) => keyValidationErrors(prepareKey(attrs), taken);

  it('accepts a title and a key, stripping the whitespace around the key', () => {
    const prepared = prepareKey({ title: 'laptop', key: `\n  ${RSA.key} \r\n` });
    expect(prepared).toEqual({ title: 'laptop', key: RSA.key, fingerprint: RSA.fingerprint });
    expect(keyValidationErrors(prepared, free)).toEqual({});
  });

  it('gives every problem of an empty key in GitLab 7.14 order and words', () => {
    expect(errorsOf({})).toEqual({
      title: ["can't be blank"],
      key: ["can't be blank", 'is invalid'],
      fingerprint: ['cannot be generated'],
    });
  });

  it('refuses text that is no key: invalid, and no fingerprint', () => {
    expect(errorsOf({ title: 't', key: 'some key' })).toEqual({
      key: ['is invalid'],
      fingerprint: ['cannot be generated'],
    });
    expect(errorsOf({ title: 't', key: 'ssh-rsa AAAA' })).toEqual({ fingerprint: ['cannot be generated'] });
  });

  it('refuses a key of several lines', () => {
    expect(errorsOf({ title: 't', key: `${RSA.key}\n${DSA.key}` })).toEqual({
      key: ['is invalid', 'should be a single line'],
    });
  });

  it('reports a taken key and fingerprint', () => {
    expect(errorsOf({ title: 't', key: RSA.key }, { key: true, fingerprint: true })).toEqual({
      key: ['has already been taken'],
      fingerprint: ['has already been taken'],
    });
  });

  it('limits the title to 255 characters and the key to 5000', () => {
    expect(errorsOf({ title: 'é'.repeat(255), key: RSA.key })).toEqual({});
    expect(errorsOf({ title: 'x'.repeat(256), key: RSA.key })).toEqual({
      title: ['is too long (maximum is 255 characters)'],
    });
    expect(errorsOf({ title: ' \t ', key: RSA.key })).toEqual({ title: ["can't be blank"] });
    expect(errorsOf({ title: 't', key: `${RSA.key} ${'c'.repeat(5000)}` }).key).toEqual([
      'is too long (maximum is 5000 characters)',
    ]);
  });

  it('throws the problems as one validation error (400 per field), and nothing for a valid key', () => {
    expect(() => keyValidation(prepareKey({ title: 't', key: RSA.key }), free).throwIfAny()).not.toThrow();
    let thrown: { extensions?: { code?: string; fields?: unknown } } | undefined;
    try {
      keyValidation(prepareKey({ title: '', key: 'some key' }), free).throwIfAny();
    } catch (error) {
      thrown = error as typeof thrown;
    }
    expect(thrown?.extensions).toMatchObject({
      code: 'VALIDATION',
      fields: { title: ["can't be blank"], key: ['is invalid'], fingerprint: ['cannot be generated'] },
    });
  });

  it('counts characters as code points: 255 astral characters are a title of 255', () => {
    expect(errorsOf({ title: '\u{1F511}'.repeat(255), key: RSA.key })).toEqual({});
    expect(errorsOf({ title: '\u{1F511}'.repeat(256), key: RSA.key })).toEqual({
      title: ['is too long (maximum is 255 characters)'],
    });
  });
});

describe('a key of megabytes', () => {
  // An ECDSA line whose point is off its curve: every such line costs a point check to refuse.
  const offCurve = (() => {
    const blob = readBlob(EC384.key);
    const [type, curve, point] = fields(blob);
    const bent = Buffer.from(point);
    bent[40] ^= 1;
    return line(type.toString(), Buffer.concat([str(type), str(curve), str(bent)]));
  })();
  const huge = (lines: number, extra = '') => Array(lines).fill(offCurve).join('\n') + extra;

  it('reads only the first 5000 characters for a fingerprint: a key line further on gives none', () => {
    const text = `${huge(Math.ceil(5000 / offCurve.length))}\n${RSA.key}`;
    expect(fingerprintOf(text)).toBe(RSA.fingerprint);
    expect(prepareKey({ title: 't', key: text }).fingerprint).toBeNull();
    // Within the limit the whole text is still read, as ssh-keygen read the file.
    const short = `${offCurve}\n${RSA.key}`;
    expect(prepareKey({ title: 't', key: short }).fingerprint).toBe(RSA.fingerprint);
  });

  it('gives the first readable line’s fingerprint when it starts within the limit', () => {
    expect(prepareKey({ title: 't', key: `${RSA.key}\n${huge(100)}` }).fingerprint).toBe(RSA.fingerprint);
  });

  // No clock here (these machines are shared): a reading that went over every line, or backtracked
  // over the runs of spaces, would take minutes on this input and trip jest's test timeout.
  it('refuses 9 MiB of unreadable lines and runs of spaces', () => {
    const text = huge(Math.floor((9 * 1024 * 1024) / (offCurve.length + 1)), ` ${' '.repeat(60_000)}x`);
    const errors = keyValidationErrors(prepareKey({ title: 't', key: `  ${text}\n` }), {
      key: false,
      fingerprint: false,
    });
    expect(errors).toEqual({
      key: ['is too long (maximum is 5000 characters)', 'is invalid', 'should be a single line'],
      fingerprint: ['cannot be generated'],
    });
  });

  it('strips as Ruby’s strip did, without backtracking over inner runs of spaces', () => {
    expect(stripKey('\0\v\f \t\r\nkey  with\t inner \n space\u00a0 \n\0')).toBe('key  with\t inner \n space\u00a0');
    expect(stripKey(' \t\n ')).toBe('');
    // Backtracking over 2 million inner spaces is quadratic: hours, far past jest's timeout.
    const inner = `a${' '.repeat(2_000_000)}b`;
    expect(stripKey(`  ${inner}  `)).toBe(inner);
  });
});
