import fc from 'fast-check';

/**
 * A value of the world, resolved when the request is sent (see requests.ts): the fuzz's inputs
 * name records ("the victim's issue") rather than carry ids, so that a request can be replayed
 * with the victim swapped for the missing project.
 */
export interface WorldRef {
  ref: string;
}

export type Value = string | number | boolean | null | WorldRef | Value[] | { [key: string]: Value };

export const isRef = (v: unknown): v is WorldRef =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  typeof (v as WorldRef).ref === 'string' &&
  Object.keys(v).length === 1;
const ref = (name: string): WorldRef => ({ ref: name });

/** The projects a request may name, and the records each holds. */
export const PROJECTS = ['victim', 'visible', 'own'] as const;
const RECORDS = [
  'issue',
  'issueNote',
  'mergeRequest',
  'mergeRequestNote',
  'snippet',
  'snippetNote',
  'hook',
  'milestone',
  'deployKey',
] as const;

export const projectRef = fc.constantFrom(
  ...['victim.id', 'victim.path', 'visible.id', 'visible.path', 'own.id', 'own.path', 'missing.id', 'missing.path'].map(
    ref,
  ),
);
export const userRef = fc.constantFrom(
  ...['owner.id', 'actor.id', 'root.id', 'missingUser.id', 'owner.username', 'actor.username'].map(ref),
);
export const groupRef = fc.constantFrom(...['group.id', 'group.path'].map(ref));
export const recordRefOf = (kind: string) => fc.constantFrom(...PROJECTS.map((p) => ref(`${p}.${kind}`)));
export const anyRecordRef = fc.constantFrom(...PROJECTS.flatMap((p) => RECORDS.map((r) => ref(`${p}.${r}`))));
export const shaRef = fc.constantFrom(...PROJECTS.flatMap((p) => [ref(`${p}.sha`), ref(`${p}.blobSha`)]));

/** The same 100 KB every time: its size is the point, not its text. */
const HUNDRED_KB = 'x'.repeat(100 * 1024);
const HUNDRED_KB_WIDE = 'é€😀'.repeat((100 * 1024) / 9);

/** Refs and paths that reach git or a filesystem if passed on unchecked. */
export const HOSTILE_REFS = [
  '--upload-pack=touch /tmp/fuzz-pwned',
  '--upload-pack=id',
  '-c',
  '-c core.sshCommand=touch /tmp/fuzz-pwned',
  '-ccore.pager=id',
  '--output=/tmp/fuzz-pwned',
  '--exec=id',
  '--all',
  '-',
  '--',
  '../',
  '../../../../../../etc/passwd',
  '..',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2f..%2fetc%2fpasswd',
  '....//....//etc/passwd',
  'refs/../..',
  'refs/heads/../../config',
  'refs/heads/master/../../../config',
  'HEAD@{0}',
  'HEAD@{-1}',
  'HEAD@{1 year ago}',
  'master@{upstream}',
  '@{-1}',
  '@',
  'HEAD',
  'HEAD~999999',
  'HEAD^{tree}',
  'master^{/first}',
  ':/first',
  'HEAD:README.md',
  'master:../..',
  'master..feature',
  'master...feature',
  '*',
  '?',
  '[a',
  '~',
  '^',
  '.git',
  '.git/config',
  'config',
  'objects/info/alternates',
  '/etc/passwd',
  'file:///etc/passwd',
  '\\..\\..\\windows\\win.ini',
  'a\u0000b',
  'master\nmaster',
  ' master',
  'refs/heads/master.lock',
  'FETCH_HEAD',
  'ORIG_HEAD',
  '0000000000000000000000000000000000000000',
  'ffffffffffffffffffffffffffffffffffffffff',
  'deadbeef',
];

export const HOSTILE_PATHS = [
  '../../../../../../etc/passwd',
  '/etc/passwd',
  '..',
  '.',
  '/',
  '//',
  'README.md/../../..',
  'docs/../../../../etc/hostname',
  '%2e%2e/%2e%2e/etc/passwd',
  '.git/config',
  '.git/../.git/HEAD',
  'a\u0000.txt',
  'con',
  'docs/',
  '~/.ssh/id_rsa',
  '-rf',
  '--output=x',
];

const TEXTS = [
  '',
  ' ',
  '\t\n',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '{"$ne":null}',
  "' OR '1'='1",
  "'; DROP TABLE projects; --",
  '%s%s%s%n',
  '${7*7}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '\u202eevil',
  '\ufeffbom',
  '\ud800',
  '\udfff\ud800',
  'a\u0000b',
  '\u0000',
  '\u0007\u0008\u001b[31m',
  '\r\nX-Injected: yes',
  '😀'.repeat(50),
  'ß'.repeat(300),
  'Ω≈ç√∫',
  '１２３',
  '٣',
  '__proto__',
  'constructor',
];

const controlString = fc.string({
  unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)),
  maxLength: 20,
});

/** Text of every kind: plain, unicode, control characters and NUL, huge, hostile. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 40 }), weight: 4 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 2 },
  { arbitrary: controlString, weight: 2 },
  { arbitrary: fc.constantFrom(...TEXTS), weight: 4 },
  { arbitrary: fc.constantFrom(...HOSTILE_REFS), weight: 3 },
  { arbitrary: fc.constantFrom(...HOSTILE_PATHS), weight: 2 },
  { arbitrary: fc.constantFrom(HUNDRED_KB, HUNDRED_KB_WIDE, `${HUNDRED_KB}\u0000`), weight: 1 },
);

/** Numbers at and past every edge, as numbers and as text. */
export const hostileNumber: fc.Arbitrary<number | string> = fc.oneof(
  fc.constantFrom<number | string>(
    0,
    -1,
    1,
    -0,
    2147483647,
    2147483648,
    -2147483648,
    -2147483649,
    4294967296,
    Number.MAX_SAFE_INTEGER,
    '9007199254740993',
    '99999999999999999999999999',
    1e308,
    -1e308,
    1.5,
    '1.5',
    '1e3',
    '0x10',
    '010',
    ' 7',
    '7 ',
    '+7',
    '-0',
    'NaN',
    'Infinity',
    '-Infinity',
    '１',
    '1,2',
    '',
  ),
  fc.integer(),
  fc.integer({ min: -3, max: 200 }),
  fc.double({ noNaN: false }),
);

const scalar: fc.Arbitrary<Value> = fc.oneof(
  { arbitrary: hostileString, weight: 4 },
  { arbitrary: hostileNumber, weight: 3 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
);

/** Anything at all: scalars, arrays where one value is expected, objects, nesting. */
export const hostileValue: fc.Arbitrary<Value> = fc.oneof(
  { arbitrary: scalar, weight: 8 },
  { arbitrary: fc.array(scalar, { maxLength: 3 }), weight: 2 },
  {
    arbitrary: fc.dictionary(fc.constantFrom('a', 'id', '__proto__', 'constructor', '0', ''), scalar, { maxKeys: 2 }),
    weight: 1,
  },
  { arbitrary: fc.constant<Value>([[[[['deep']]]]]), weight: 1 },
);

const BOOLEAN_TEXT = ['true', 'false', 't', 'f', '1', '0', 'on', 'off', 'yes', 'no', 'TRUE', 'maybe'];

/** Parameters that are booleans (v3 names). */
export const isFlag = (name: string) =>
  /_enabled$|_events$|^public$|^archived$|^admin$|^can_create_group$|^confirm$|^ci_enabled_first$/.test(name);

/** v3's name of a GraphQL variable or field (`userId` → `user_id`), which is what the choices below read. */
export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A value for a parameter (v3's snake_case or GraphQL's camelCase), chosen by what its name suggests (sometimes right, often not). */
export function valueFor(parameter: string): fc.Arbitrary<Value> {
  const name = snakeCase(parameter);
  let likely: fc.Arbitrary<Value>;
  if (name === 'page' || name === 'per_page') {
    likely = fc.oneof(
      hostileNumber,
      fc.constantFrom(0, -1, 1, 100, 101, 1000, 2147483647, 2147483648, '1000000000000'),
    );
  } else if (/(^|_)ids?$/.test(name) && name !== 'iid') {
    likely =
      name.includes('user') || name === 'assignee_id'
        ? fc.oneof(userRef, hostileNumber)
        : name.includes('project')
          ? fc.oneof(projectRef, hostileNumber)
          : name.includes('group')
            ? fc.oneof(groupRef, hostileNumber)
            : fc.oneof(projectRef, anyRecordRef, userRef, hostileNumber);
  } else if (
    [
      'ref',
      'sha',
      'from',
      'to',
      'ref_name',
      'branch_name',
      'branch',
      'tag_name',
      'source_branch',
      'target_branch',
      'default_branch',
    ].includes(name)
  ) {
    likely = fc.oneof(
      fc.constantFrom<Value>('master', 'feature', 'v1', 'refs/heads/master'),
      shaRef,
      fc.constantFrom(...HOSTILE_REFS),
    );
  } else if (['path', 'file_path', 'filepath', 'file_name'].includes(name)) {
    likely = fc.oneof(
      fc.constantFrom<Value>('README.md', 'docs/notes.txt', 'docs', 'new.txt'),
      fc.constantFrom(...HOSTILE_PATHS),
    );
  } else if (isFlag(name)) {
    likely = fc.oneof(fc.boolean(), fc.constantFrom(...BOOLEAN_TEXT));
  } else if (name === 'access_level' || name === 'visibility_level') {
    likely = fc.constantFrom<Value>(0, 10, 20, 30, 40, 50, 60, -1, 15, '20', 'public');
  } else if (name === 'url' || name === 'import_url') {
    likely = fc.constantFrom<Value>(
      'http://127.0.0.1:9/hook',
      'file:///etc/passwd',
      'file:///',
      '/etc',
      'http://169.254.169.254/latest/meta-data/',
      'ext::sh -c touch% /tmp/fuzz-pwned',
      '--upload-pack=touch /tmp/fuzz-pwned',
      'http://[::1]:9/',
      'http://user:pass@127.0.0.1:9/',
      'javascript:alert(1)',
      'not a url',
      'ssh://-oProxyCommand=touch /tmp/fuzz-pwned/x',
    );
  } else if (name === 'state_event' || name === 'state' || name === 'order_by' || name === 'sort' || name === 'scope') {
    likely = fc.constantFrom<Value>(
      'close',
      'reopen',
      'merge',
      'opened',
      'closed',
      'merged',
      'all',
      'asc',
      'desc',
      'id',
      'name',
      'created_at',
      'updated_at',
      'ASC',
      'owned',
    );
  } else if (name === 'key') {
    likely = fc.constantFrom<Value>('ssh-rsa AAAA', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA== x', 'not a key');
  } else if (name === 'encoding') {
    likely = fc.constantFrom<Value>('base64', 'text', 'BASE64', 'utf-16', 'hex');
  } else {
    likely = hostileString;
  }
  return fc.oneof({ arbitrary: likely, weight: 3 }, { arbitrary: hostileValue, weight: 2 });
}

/** Names no route reads, or reads only from elsewhere (credentials, ids a client must not set). */
export const EXTRA_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'sudo',
  'admin',
  'is_admin',
  'owner_id',
  'creator_id',
  'namespace_id',
  'id',
  'a[b]',
  'x',
  'per_page',
  'page',
  'private_token',
  'access_token',
  'user_id',
  'project_id',
];
