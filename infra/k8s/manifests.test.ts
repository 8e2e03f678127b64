import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { PROCESSES, type ProcessSpec } from '../local/src/processes';
import {
  addressesIn,
  dockerImages,
  DOCKER_DIR,
  REPO_ROOT,
  isConfigVariable,
  loadedConfig,
  needsGit,
  overlayNames,
  processSpec,
  render,
  selects,
  unknownFieldProblems,
  type Env,
  type K8sObject,
} from './system-model';

const { ONE_SHOT_COMMANDS, MAINTENANCE_COMMANDS } = require('../docker/run.cjs') as {
  ONE_SHOT_COMMANDS: string[];
  MAINTENANCE_COMMANDS: string[];
};

/**
 * The keys of the Secret production creates by hand (infra/k8s/overlays/prod), with made-up values
 * that only let the processes' loaders run.
 */
const EXTERNAL_SECRET: Env = {
  DATABASE_URL: 'postgres://hub:x@db.example.com:5432/hub',
  REDIS_URL: 'redis://cache.example.com:6379',
  PRINCIPAL_SECRET: 'p'.repeat(48),
  TOKEN_ENCRYPTION_KEY: 'k'.repeat(48),
  ROOT_TOKEN: 'r'.repeat(24),
  ROOT_PASSWORD: 'root-password',
};
/** Reachable from anywhere: the REST API, and GraphQL for internal teams. A choice, not derived. */
const PUBLIC = ['gateway', 'rest-facade'];

interface Workload {
  name: string;
  object: K8sObject;
  podLabels: Record<string, string>;
  container: K8sObject;
  spec: ProcessSpec;
  env: Env;
  /** The variables the process reads, parsed, from `env`. */
  config: Record<string, unknown>;
  /** Container port by name. */
  ports: Map<string, number>;
}

interface System {
  objects: K8sObject[];
  workloads: Workload[];
  services: K8sObject[];
  of: (kind: string) => K8sObject[];
}

function envOf(container: K8sObject, objects: K8sObject[]): Env {
  const env: Env = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) {
      const map = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === source.configMapRef.name);
      if (!map) throw new Error(`ConfigMap ${source.configMapRef.name} is not in the render`);
      Object.assign(env, map.data);
    }
    if (source.secretRef) {
      const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === source.secretRef.name);
      if (secret) {
        for (const [key, value] of Object.entries(secret.data ?? {}))
          env[key] = Buffer.from(value as string, 'base64').toString();
        Object.assign(env, secret.stringData);
      } else if (source.secretRef.name === 'hub-secrets') {
        Object.assign(env, EXTERNAL_SECRET);
      } else {
        throw new Error(`Secret ${source.secretRef.name} is neither rendered nor the external hub-secrets`);
      }
    }
  }
  for (const variable of container.env ?? []) env[variable.name] = variable.value;
  return env;
}

function analyse(objects: K8sObject[]): System {
  const of = (kind: string) => objects.filter((o) => o.kind === kind);
  const workloads = [...of('Deployment'), ...of('StatefulSet')].map((object): Workload => {
    const container = object.spec.template.spec.containers[0];
    const spec = processSpec(container.args?.[0]);
    if (!spec)
      throw new Error(`${object.kind} ${object.metadata.name} runs "${container.args?.[0]}", which is no process kind`);
    const env = envOf(container, objects);
    return {
      name: object.metadata.name,
      object,
      podLabels: object.spec.template.metadata.labels,
      container,
      spec,
      env,
      config: loadedConfig(spec, env),
      ports: new Map((container.ports ?? []).map((p: K8sObject) => [p.name, p.containerPort])),
    };
  });
  return { objects, workloads, services: of('Service'), of };
}

/** The container port a Service port or probe names (by name or number), or undefined. */
function containerPort(workload: Workload, port: string | number): number | undefined {
  if (typeof port === 'number') return [...workload.ports.values()].includes(port) ? port : undefined;
  return workload.ports.get(port);
}

/** The workload a host name reaches: a Service's name, or a StatefulSet pod's name under its headless Service. */
function resolveHost(system: System, host: string): { service: K8sObject; workload: Workload } | null {
  const [first, second] = host.split('.');
  let service = system.services.find((s) => s.metadata.name === first);
  if (!service && second) {
    const headless = system.services.find((s) => s.metadata.name === second && s.spec.clusterIP === 'None');
    const set = system.workloads.find((w) => w.object.kind === 'StatefulSet' && w.object.spec.serviceName === second);
    const ordinal = set ? new RegExp(`^${set.name}-(\\d+)$`).exec(first)?.[1] : undefined;
    if (headless && set && ordinal !== undefined && Number(ordinal) < set.object.spec.replicas) service = headless;
  }
  if (!service) return null;
  const workload = system.workloads.find((w) => selects({ matchLabels: service.spec.selector }, w.podLabels));
  return workload ? { service, workload } : null;
}

/** Edges `caller->target:portName` the processes' address settings draw, read through their loaders. */
function callGraph(system: System): { edges: Set<string>; problems: string[] } {
  const edges = new Set<string>();
  const problems: string[] = [];
  for (const caller of system.workloads) {
    const addresses = Object.entries(caller.config).flatMap(([name, value]) =>
      addressesIn(name, value).map((address) => ({ name, address })),
    );
    for (const { name, address } of addresses) {
      const target = resolveHost(system, address.host);
      if (!target) {
        // Outside the cluster (Postgres, Redis, the public URL), unless it names a pod of a headless Service.
        const [, second] = address.host.split('.');
        if (system.services.some((s) => s.metadata.name === second && s.spec.clusterIP === 'None'))
          problems.push(`${caller.name}: ${name} names ${address.host}, no pod there`);
        continue;
      }
      const servicePort = target.service.spec.ports.find((p: K8sObject) => p.port === address.port);
      const port = servicePort && containerPort(target.workload, servicePort.targetPort);
      const portName = [...target.workload.ports].find(([, number]) => number === port)?.[0];
      if (!portName)
        problems.push(
          `${caller.name}: ${name} names no port of ${target.service.metadata.name} (${address.host}:${address.port})`,
        );
      else edges.add(`${caller.name}->${target.workload.name}:${portName}`);
    }
  }
  for (const edge of handedOnEdges(system)) edges.add(edge);
  return { edges, problems };
}

/**
 * Calls to addresses a process is handed in requests rather than reads itself: a git worker is
 * given another shard's git HTTP URL (Repository.remote_url in protos/shared.proto, taken from the
 * callers' shard list) and fetches from it, so git workers call each other's http port.
 */
function handedOnEdges(system: System): string[] {
  const proto = readFileSync(join(REPO_ROOT, 'protos/shared.proto'), 'utf8');
  if (!/^\s*string remote_url = \d+;/m.test(proto)) return [];
  return system.workloads.filter((w) => needsGit(w.spec)).map((w) => `${w.name}->${w.name}:http`);
}

/** Compares the NetworkPolicies with the call graph: every edge allowed, nothing else, public entry points open. */
function policyProblems(system: System): string[] {
  const { edges, problems } = callGraph(system);
  const policies = system.of('NetworkPolicy');
  if (
    !policies.some(
      (p) => Object.keys(p.spec.podSelector).length === 0 && p.spec.policyTypes.includes('Ingress') && !p.spec.ingress,
    )
  ) {
    problems.push('no default-deny ingress policy');
  }
  const allowed = new Set<string>();
  const publicPorts = new Set<string>();
  for (const target of system.workloads) {
    const rules = policies
      .filter((p) => selects(p.spec.podSelector, target.podLabels))
      .flatMap((p) => p.spec.ingress ?? []);
    for (const rule of rules) {
      const ports: string[] = rule.ports
        ? rule.ports.map(
            (p: K8sObject) =>
              [...target.ports].find(([name, number]) => p.port === name || p.port === number)?.[0] ?? `?${p.port}`,
          )
        : [...target.ports.keys()];
      if (!rule.from) {
        for (const port of ports) publicPorts.add(`${target.name}:${port}`);
        continue;
      }
      for (const peer of rule.from) {
        if (peer.namespaceSelector || peer.ipBlock) {
          // Scrapers from another namespace: the metrics port only.
          const metricsPort = Number(target.object.spec.template.metadata.annotations?.['prometheus.io/port']);
          for (const port of ports)
            if (target.ports.get(port) !== metricsPort)
              problems.push(`${target.name}:${port} is open to another namespace`);
          continue;
        }
        for (const caller of system.workloads.filter((w) => selects(peer.podSelector, w.podLabels))) {
          for (const port of ports) allowed.add(`${caller.name}->${target.name}:${port}`);
        }
      }
    }
  }
  const open = [...publicPorts].map((p) => p.split(':')[0]);
  if ([...new Set(open)].sort().join() !== PUBLIC.join()) problems.push(`public: ${[...new Set(open)].sort().join()}`);
  const needed = [...edges].filter((edge) => !publicPorts.has(edge.split('->')[1]));
  for (const edge of needed) if (!allowed.has(edge)) problems.push(`not allowed: ${edge}`);
  // Ports are held exactly one way only: a caller let in on a further port of a process it does
  // call is tolerated (a setting listing shards names both ports of each before every caller uses both).
  const pairs = new Set([...edges].map((edge) => edge.split(':')[0]));
  for (const edge of allowed) if (!pairs.has(edge.split(':')[0])) problems.push(`allowed but never called: ${edge}`);
  return problems.sort();
}

function workloadProblems(system: System): string[] {
  const problems: string[] = [];
  const images = dockerImages();
  for (const w of system.workloads) {
    const at = `${w.object.kind} ${w.name}`;
    const c = w.container;
    // The port the process listens on, per its configuration, is the one the pod declares.
    const httpPort = w.config[w.spec.portVariable];
    if (w.ports.get('http') !== httpPort)
      problems.push(`${at}: port http ${w.ports.get('http')} but ${w.spec.portVariable}=${httpPort}`);
    for (const [name, number] of w.ports) {
      const variable = Object.keys(w.config).find((v) => isPortVariable(v) && w.config[v] === number);
      if (!variable) problems.push(`${at}: container port ${name}=${number} is no port the process reads`);
    }
    for (const [key, value] of Object.entries(w.spec.env ?? {})) {
      if (w.env[key] !== undefined && w.env[key] !== value)
        problems.push(`${at}: ${key}=${w.env[key]}, but the process kind runs with ${value}`);
    }
    for (const [probe, path] of [
      ['readinessProbe', '/readyz'],
      ['livenessProbe', '/healthz'],
    ] as const) {
      const get = c[probe]?.httpGet;
      if (get?.path !== path || containerPort(w, get.port) !== httpPort)
        problems.push(`${at}: ${probe} is not GET ${path} on port ${httpPort}`);
    }
    for (const bound of ['requests', 'limits']) {
      if (!c.resources?.[bound]?.cpu || !c.resources?.[bound]?.memory)
        problems.push(`${at}: no cpu and memory ${bound}`);
    }
    const annotations = w.object.spec.template.metadata.annotations ?? {};
    if (
      annotations['prometheus.io/scrape'] !== 'true' ||
      Number(annotations['prometheus.io/port']) !== httpPort ||
      annotations['prometheus.io/path'] !== '/metrics'
    ) {
      problems.push(`${at}: no Prometheus scrape annotations for /metrics on ${httpPort}`);
    }
    const services = system.services.filter((s) => selects({ matchLabels: s.spec.selector }, w.podLabels));
    if (services.length === 0) problems.push(`${at}: no Service`);
    for (const service of services) {
      for (const port of service.spec.ports) {
        if (containerPort(w, port.targetPort) === undefined)
          problems.push(`Service ${service.metadata.name}: targetPort ${port.targetPort} is no port of ${w.name}`);
      }
    }
    if (!system.of('PodDisruptionBudget').some((b) => selects(b.spec.selector, w.podLabels)))
      problems.push(`${at}: no PodDisruptionBudget`);
    const image = images.find((i) => imageName(c.image) === i.title);
    if (!image)
      problems.push(`${at}: image ${c.image} is none the Dockerfile builds (${images.map((i) => i.title).join(', ')})`);
    else if (image.hasGit !== needsGit(w.spec))
      problems.push(`${at}: image ${c.image} ${image.hasGit ? 'has' : 'lacks'} git`);
  }
  for (const spec of PROCESSES) {
    if (system.workloads.filter((w) => w.spec.name === spec.name).length !== 1)
      problems.push(
        `process ${spec.name} runs in ${system.workloads.filter((w) => w.spec.name === spec.name).length} workloads`,
      );
  }
  return problems;
}

const isPortVariable = (name: string) => /(^|_)PORT$/.test(name);

/** Each overlay rendered once; tests that change objects take a copy. */
const rendered = new Map<string, K8sObject[]>();
const renderOnce = (dir: string) => {
  if (!rendered.has(dir)) rendered.set(dir, render(dir));
  return structuredClone(rendered.get(dir)!);
};

/** registry.example.com/v3hub-git-worker:0.1.0 → v3hub-git-worker */
const imageName = (image: string) => image.split('/').pop()!.split(/[:@]/)[0];

describe.each(overlayNames())('kustomize overlay %s', (overlay) => {
  let system: System;
  beforeAll(() => {
    system = analyse(renderOnce(`overlays/${overlay}`));
  });

  it('renders objects that validate against the Kubernetes schema', () => {
    const problems = system.objects.flatMap((object) => {
      let Model: (new (data: unknown) => { validate: () => void }) | undefined;
      try {
        Model = (require(`kubernetes-models/${object.apiVersion}`) as Record<string, typeof Model>)[object.kind];
      } catch {
        // no such API version in the schema
      }
      if (!Model) return [`${object.apiVersion} ${object.kind} is not in the Kubernetes schema`];
      try {
        new Model(object).validate();
        return [];
      } catch (error) {
        return [`${object.kind} ${object.metadata.name}: ${(error as Error).message}`];
      }
    });
    expect(problems).toEqual([]);
    expect(unknownFieldProblems(system.objects)).toEqual([]);
    expect(system.objects.length).toBeGreaterThan(40);
  });

  it('runs every process kind once, by name, from the image built for it, with probes, limits, a Service, a budget and scrape annotations', () => {
    expect(workloadProblems(system)).toEqual([]);
  });

  it('sets only variables of the configuration table, and every process accepts the environment it gets', () => {
    const named = [
      ...system.of('ConfigMap').flatMap((m) => Object.keys(m.data ?? {})),
      ...system.of('Secret').flatMap((s) => [...Object.keys(s.data ?? {}), ...Object.keys(s.stringData ?? {})]),
      ...[...system.workloads.map((w) => w.object), ...system.of('Job')].flatMap((o) =>
        [...o.spec.template.spec.containers, ...(o.spec.template.spec.initContainers ?? [])].flatMap((c: K8sObject) =>
          (c.env ?? []).map((e: K8sObject) => e.name),
        ),
      ),
    ];
    expect(named.filter((name) => !isConfigVariable(name))).toEqual([]);
    // analyse() ran every process's loaders on its environment: a missing or malformed setting throws there.
    expect(system.workloads.every((w) => Object.keys(w.config).length > 0)).toBe(true);
    // The facade runs the gateway in-process (the topology the tests and the bench measure), so it
    // calls the subgraphs itself: the policies below must let it, as the call graph derives.
    expect(system.workloads.find((w) => w.spec.name === 'rest-facade')!.config.GATEWAY_MODE).toBe('embedded');
  });

  it('lets each process be reached only by the processes whose configuration names it', () => {
    expect(policyProblems(system)).toEqual([]);
    // The graph is real: the gateway calls every subgraph, and only these reach the git worker.
    const { edges } = callGraph(system);
    expect([...edges].filter((e) => e.startsWith('gateway->')).length).toBeGreaterThanOrEqual(7);
    expect(
      [...new Set([...edges].filter((e) => e.includes('->git-worker:')).map((e) => e.split('->')[0]))].sort(),
    ).toEqual(['git-worker', 'mergerequests', 'repository', 'rest-facade']);
  });

  it('autoscales every Deployment, the hook workers on the queue depth their process exposes', () => {
    const hpas = system.of('HorizontalPodAutoscaler');
    for (const deployment of system.of('Deployment')) {
      const hpa = hpas.find(
        (h) => h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === deployment.metadata.name,
      );
      expect({ deployment: deployment.metadata.name, hpa: !!hpa }).toEqual({
        deployment: deployment.metadata.name,
        hpa: true,
      });
      expect(hpa!.spec.minReplicas).toBeLessThanOrEqual(hpa!.spec.maxReplicas);
    }
    const worker = system.workloads.find((w) => w.config.HOOKS_ROLE === 'worker')!;
    const external = hpas
      .find((h) => h.spec.scaleTargetRef.name === worker.name)!
      .spec.metrics.find((m: K8sObject) => m.type === 'External');
    const gauge = external.external.metric.name;
    expect(readFileSync(join(__dirname, '../../services/hooks/src/main.ts'), 'utf8')).toContain(`name: '${gauge}'`);
  });

  it('migrates and seeds root once per release, in a Job run by the image entry point', () => {
    const jobs = system.of('Job');
    expect(jobs).toHaveLength(1);
    const pod = jobs[0].spec.template.spec;
    const steps = [...(pod.initContainers ?? []), ...pod.containers];
    expect(steps.map((c: K8sObject) => c.args[0])).toEqual(['migrate', 'seed-root']);
    for (const step of steps) {
      expect(ONE_SHOT_COMMANDS).toContain(step.args[0]);
      expect(dockerImages().map((i) => i.title)).toContain(imageName(step.image));
      const env = envOf(step, system.objects);
      expect([env.DATABASE_URL, env.ROOT_TOKEN, env.ROOT_PASSWORD].every(Boolean)).toBe(true);
    }
  });

  it('backs up nightly, one run at a time, from the image with git, into a claimed volume, reading the shards it may reach', () => {
    const [cron, ...more] = system.of('CronJob');
    expect(more).toEqual([]);
    expect(cron.spec.concurrencyPolicy).toBe('Forbid');
    const pod = cron.spec.jobTemplate.spec.template.spec;
    const [container] = pod.containers;
    const [command, flag, dir] = container.args;
    expect([MAINTENANCE_COMMANDS.includes(command), flag]).toEqual([true, '--to']);
    expect(dockerImages().find((i) => i.title === imageName(container.image))?.hasGit).toBe(true);
    const mount = container.volumeMounts.find((m: K8sObject) => m.mountPath === dir);
    const claim = pod.volumes.find((v: K8sObject) => v.name === mount?.name)?.persistentVolumeClaim?.claimName;
    expect(system.of('PersistentVolumeClaim').map((c) => c.metadata.name)).toContain(claim);
    const env = envOf(container, system.objects);
    expect([env.DATABASE_URL, env.REDIS_URL, env.PRINCIPAL_SECRET, env.GIT_WORKER_SHARDS].every(Boolean)).toBe(true);
    // It fetches from every shard GIT_WORKER_SHARDS names: each one's policy lets its pods in there.
    const labels = cron.spec.jobTemplate.spec.template.metadata.labels;
    const worker = system.workloads.find((w) => w.spec.name === 'git-worker')!;
    const rules = system
      .of('NetworkPolicy')
      .filter((p) => selects(p.spec.podSelector, worker.podLabels))
      .flatMap((p) => p.spec.ingress ?? []);
    const httpRule = rules.find(
      (rule: K8sObject) =>
        rule.ports?.some((p: K8sObject) => p.port === 'http') &&
        rule.from?.some((peer: K8sObject) => peer.podSelector && selects(peer.podSelector, labels)),
    );
    expect(httpRule).toBeDefined();
  });

  it('keeps the git worker a StatefulSet with a volume per replica at REPOS_ROOT behind a headless Service', () => {
    const worker = system.workloads.find((w) => w.spec.name === 'git-worker')!;
    expect(worker.object.kind).toBe('StatefulSet');
    const service = system.services.find((s) => s.metadata.name === worker.object.spec.serviceName)!;
    expect(service.spec.clusterIP).toBe('None');
    const claims = worker.object.spec.volumeClaimTemplates.map((t: K8sObject) => t.metadata.name);
    const mount = worker.container.volumeMounts.find((m: K8sObject) => m.mountPath === worker.config.REPOS_ROOT);
    expect(claims).toContain(mount?.name);
  });
});

describe('the unknown-field check', () => {
  it('names a field the Kubernetes types do not have', () => {
    const objects = renderOnce('overlays/dev').filter((o) => o.kind === 'Deployment' && o.metadata.name === 'notes');
    objects[0].spec.template.spec.containers[0].readinesProbe =
      objects[0].spec.template.spec.containers[0].readinessProbe;
    const problems = unknownFieldProblems(objects);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^Deployment notes: .*readinesProbe.* does not exist in type 'IContainer'/);
  });
});

describe('the policy check', () => {
  it('fails when a caller the configuration names is not let in, or one it does not is', () => {
    const objects = renderOnce('overlays/prod');
    const notes = objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'notes')!;
    notes.spec.ingress[0].from[0].podSelector.matchExpressions[0].values = ['gateway', 'identity', 'rest-facade'];
    expect(policyProblems(analyse(objects))).toEqual([
      'allowed but never called: identity->notes:http',
      'not allowed: mergerequests->notes:http',
      'not allowed: projects->notes:http',
    ]);
  });
});

describe('the compose file', () => {
  const compose = parse(readFileSync(join(DOCKER_DIR, 'compose.yaml'), 'utf8'), { merge: true }) as {
    services: Record<
      string,
      K8sObject & {
        command?: string[];
        environment?: Env;
        build?: { target: string };
        ports?: string[];
        depends_on?: Record<string, unknown>;
        healthcheck?: { test: string[] };
      }
    >;
  };
  const ours = Object.entries(compose.services).filter(([, s]) => s.build);

  it('runs every process kind and the release steps, each by name, from the image built for it', () => {
    const commands = ours.map(([, s]) => s.command?.[0]).sort();
    expect(commands).toEqual([...PROCESSES.map((p) => p.name), ...ONE_SHOT_COMMANDS].sort());
    const images = dockerImages();
    for (const [name, s] of ours) {
      const image = images.find((i) => i.stage === s.build!.target);
      const spec = processSpec(s.command![0]);
      expect({ name, image: !!image, git: image?.hasGit }).toEqual({
        name,
        image: true,
        git: spec ? needsGit(spec) : false,
      });
      for (const other of Object.keys(s.depends_on ?? {})) expect(Object.keys(compose.services)).toContain(other);
    }
  });

  it('sets only configuration variables; each process accepts them, listens where published and checked, and is reached where the others look', () => {
    const listening = new Map<string, number[]>();
    for (const [name, s] of ours) {
      const env = s.environment ?? {};
      expect(Object.keys(env).filter((key) => !isConfigVariable(key))).toEqual([]);
      const spec = processSpec(s.command![0]);
      if (!spec) continue;
      const config = loadedConfig(spec, env);
      for (const [key, value] of Object.entries(spec.env ?? {})) expect(env[key] ?? value).toBe(value);
      const port = config[spec.portVariable] as number;
      listening.set(
        name,
        Object.keys(config)
          .filter(isPortVariable)
          .map((v) => config[v] as number),
      );
      expect(s.healthcheck?.test.join(' ')).toContain(`http://127.0.0.1:${port}/readyz`);
      for (const published of s.ports ?? []) expect(Number(published.split(':').pop())).toBe(port);
    }
    for (const [name, s] of ours) {
      const spec = processSpec(s.command![0]);
      if (!spec) continue;
      for (const [variable, value] of Object.entries(loadedConfig(spec, s.environment ?? {}))) {
        for (const address of addressesIn(variable, value)) {
          if (!compose.services[address.host]?.build) continue;
          expect({ from: name, variable, listens: listening.get(address.host)?.includes(address.port) }).toEqual({
            from: name,
            variable,
            listens: true,
          });
        }
      }
    }
  });
});

describe('the deploy guide (docs/deploy.md)', () => {
  it('names only overlays, objects, namespaces, images and build targets that exist', () => {
    const section = readFileSync(join(REPO_ROOT, 'docs/deploy.md'), 'utf8');
    const objects = overlayNames().flatMap((overlay) => renderOnce(`overlays/${overlay}`));
    const kinds: Record<string, string> = {
      job: 'Job',
      hpa: 'HorizontalPodAutoscaler',
      statefulset: 'StatefulSet',
      svc: 'Service',
      deployment: 'Deployment',
    };
    const found = (kind: string, name: string) => objects.some((o) => o.kind === kind && o.metadata.name === name);
    const references = [...section.matchAll(/\b(job|hpa|statefulset|svc|deployment)[ /]([a-z0-9-]+)/g)];
    expect(references.length).toBeGreaterThan(3);
    expect(references.filter(([, kind, name]) => !found(kinds[kind], name)).map(([text]) => text)).toEqual([]);
    expect(
      [...section.matchAll(/-n ([a-z0-9-]+)/g)].filter(([, ns]) => !found('Namespace', ns)).map(([text]) => text),
    ).toEqual([]);
    expect(
      [...section.matchAll(/overlays\/([a-z]+)/g)]
        .filter(([, overlay]) => !overlayNames().includes(overlay))
        .map(([text]) => text),
    ).toEqual([]);
    // The Secret made by hand in production holds what the dev overlay generates and the test assumes.
    const secretKeys = (text: string) => [...text.matchAll(/--from-literal=([A-Z_]+)=/g)].map(([, key]) => key).sort();
    expect(secretKeys(section)).toEqual(Object.keys(EXTERNAL_SECRET).sort());
    expect(secretKeys(readFileSync(join(REPO_ROOT, 'infra/k8s/overlays/prod/kustomization.yaml'), 'utf8'))).toEqual(
      Object.keys(EXTERNAL_SECRET).sort(),
    );
    const dev = objects.find((o) => o.kind === 'Secret' && o.metadata.name.startsWith('hub-secrets'))!;
    expect(Object.keys(dev.data).sort()).toEqual(Object.keys(EXTERNAL_SECRET).sort());
    const builds = [...section.matchAll(/--target (\S+) -t (?:\S+\/)?([a-z0-9-]+):/g)];
    expect(builds.length).toBe(dockerImages().length);
    for (const [, target, image] of builds) expect(dockerImages().find((i) => i.stage === target)?.title).toBe(image);
  });
});
