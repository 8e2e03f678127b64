// The front page and docs/ stay what they were made to be: a README short enough to read, with the
// diagram of the processes, and pages whose links lead somewhere inside this repository.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

const REPO_ROOT = resolve(__dirname, '..', '..', '..');
const README = join(REPO_ROOT, 'README.md');
const DOCS = join(REPO_ROOT, 'docs');
/** 10 KiB: the front page's budget. */
const README_MAX_BYTES = 10_240;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** The page without its fenced blocks (code, diagrams). */
const withoutFences = (markdown: string): string => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');

/** The text GitHub renders as prose: fenced blocks and inline code spans left out. */
const prose = (markdown: string): string => withoutFences(markdown).replace(/(`+)[^`]*?\1/g, '');

/** Every link target: inline links and images, reference definitions, autolinks, and raw HTML hrefs. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  return [
    ...[...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
    ...[...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]),
    ...[...text.matchAll(/<([a-z][a-z0-9+.-]*:[^\s>]*)>/gi)].map((m) => m[1]),
    ...[...text.matchAll(/\bhref\s*=\s*["']([^"']*)["']/gi)].map((m) => m[1]),
  ];
}

/** Addresses of other sites anywhere in the prose: GitHub turns even a bare one into a link. */
const outsideAddresses = (markdown: string): string[] => prose(markdown).match(/\bhttps?:\/\/[^\s)>\]]+/gi) ?? [];

/** GitHub's anchor for a heading: formatting dropped, lower case, punctuation gone, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a page's headings make, repeated ones numbered as GitHub numbers them. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of withoutFences(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** What is wrong with one link of `file`, or null when it leads to a file (and heading) of the repository. */
function brokenLink(file: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return 'leads outside the repository';
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  let path: string;
  try {
    path = decodeURIComponent(pathPart);
  } catch {
    return 'is not a valid address';
  }
  if (isAbsolute(path)) return 'is absolute, not relative';
  const resolved = path === '' ? file : resolve(dirname(file), path);
  const inRepo = relative(REPO_ROOT, resolved);
  if (inRepo.startsWith('..') || isAbsolute(inRepo)) return 'leaves the repository';
  if (!existsSync(resolved)) return 'names no file';
  if (anchor === undefined) return null;
  if (!resolved.endsWith('.md')) return 'has an anchor into a file without headings';
  return anchors(readFileSync(resolved, 'utf8')).has(anchor.toLowerCase()) ? null : `names no heading #${anchor}`;
}

const pages = [README, ...markdownFiles(DOCS)];
const name = (file: string) => relative(REPO_ROOT, file);

describe('the front page', () => {
  const readme = readFileSync(README, 'utf8');

  it(`fits in ${README_MAX_BYTES} bytes`, () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it('draws the processes in a mermaid block, and starts with the two commands', () => {
    expect(readme).toMatch(/^```mermaid\nflowchart [\s\S]+?^```$/m);
    const commands = readme.indexOf('npm start');
    expect(commands).toBeGreaterThan(-1);
    expect(commands).toBeLessThan(readme.indexOf('```mermaid'));
    expect(readme.indexOf('npm test')).toBeLessThan(readme.indexOf('```mermaid'));
  });

  it('points into docs/', () => {
    expect(linkTargets(readme).filter((target) => target.startsWith('docs/')).length).toBeGreaterThan(5);
  });
});

describe('the links of the README and docs/', () => {
  it('finds the pages', () => {
    expect(pages.length).toBeGreaterThan(5);
  });

  it.each(pages.map((file) => [name(file), file]))('%s: every link leads to a file and heading here', (_, file) => {
    const markdown = readFileSync(file, 'utf8');
    const broken = linkTargets(markdown)
      .map((target) => ({ target, problem: brokenLink(file, target) }))
      .filter(({ problem }) => problem !== null);
    expect(broken).toEqual([]);
  });

  it.each(pages.map((file) => [name(file), file]))('%s: names no address of another site', (_, file) => {
    expect(outsideAddresses(readFileSync(file, 'utf8'))).toEqual([]);
  });

  it.each(pages.map((file) => [name(file), file]))(
    '%s: says what a thing is, not which issue asked for it',
    (_, file) => {
      expect(prose(readFileSync(file, 'utf8')).match(/\bissues? #?\d+/gi) ?? []).toEqual([]);
    },
  );
});

// The checker itself, on small pages: a check that finds nothing must be one that would.
describe('the link checker', () => {
  const page = join(DOCS, 'README.md');

  it('reads inline, reference and HTML links, and none inside code', () => {
    const markdown = [
      'See [a](a.md), ![b](img/b.png "title") and <https://x.example>.',
      '[ref]: c.md',
      '<a href="d.md">d</a> and `[e](e.md)`',
      '```sh',
      'curl [f](f.md) http://g.example',
      '```',
    ].join('\n');
    expect(linkTargets(markdown)).toEqual(['a.md', 'img/b.png', 'c.md', 'https://x.example', 'd.md']);
    expect(outsideAddresses(markdown)).toEqual(['https://x.example']);
  });

  it('makes anchors as GitHub does', () => {
    const markdown = '# Using the API\n## `GATEWAY_MODE` and *you*\n## Add a git shard\n## Add a git shard\n';
    expect([...anchors(markdown)]).toEqual([
      'using-the-api',
      'gateway_mode-and-you',
      'add-a-git-shard',
      'add-a-git-shard-1',
    ]);
  });

  it.each([
    ['https://example.com/docs', 'leads outside the repository'],
    ['//example.com', 'leads outside the repository'],
    ['/etc/passwd', 'is absolute, not relative'],
    ['../../outside.md', 'leaves the repository'],
    ['missing.md', 'names no file'],
    ['../README.md#no-such-heading', 'names no heading #no-such-heading'],
    ['../package.json#x', 'has an anchor into a file without headings'],
  ])('refuses %s: it %s', (target, problem) => {
    expect(brokenLink(page, target)).toBe(problem);
  });

  it('takes a file, a folder, and a heading of another page', () => {
    expect(brokenLink(page, '../README.md')).toBeNull();
    expect(brokenLink(page, '../services/common')).toBeNull();
    expect(brokenLink(page, '../README.md#two-commands')).toBeNull();
  });
});
