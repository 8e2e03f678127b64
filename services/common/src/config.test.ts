import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CONFIG_TABLE, loadConfig, renderConfigTable } from './config';

describe('loadConfig', () => {
  it('applies literal and derived defaults', () => {
    const config = loadConfig(['PORT', 'GATEWAY_PORT', 'GATEWAY_URL', 'EXTERNAL_URL'] as const, {
      env: { GATEWAY_PORT: '4100' },
    });
    expect(config).toEqual({
      PORT: 8080,
      GATEWAY_PORT: 4100,
      GATEWAY_URL: 'http://127.0.0.1:4100',
      EXTERNAL_URL: 'http://localhost:8080',
    });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig(['PORT'] as const, { env: { PORT: '' } }).PORT).toBe(8080);
  });

  it('reports every missing or malformed variable at once', () => {
    expect(() =>
      loadConfig(['DATABASE_URL', 'PORT', 'PRINCIPAL_SECRET', 'LOG_LEVEL'] as const, {
        env: { PORT: 'eighty', PRINCIPAL_SECRET: 'short', LOG_LEVEL: 'loud' },
      }),
    ).toThrow(
      /DATABASE_URL is required; PORT must be an integer.*; PRINCIPAL_SECRET must be at least 32 characters; LOG_LEVEL must be one of/,
    );
  });

  it('leaves optional variables undefined', () => {
    expect(loadConfig(['PORT'] as const, { optional: ['ROOT_TOKEN'] as const, env: {} })).toEqual({ PORT: 8080 });
  });

  it('reads git worker shards, one named default from the single-worker settings when unset', () => {
    expect(
      loadConfig(['GIT_WORKER_SHARDS'] as const, {
        env: { GIT_WORKER_GRPC_PORT: '5010', GIT_WORKER_HTTP_PORT: '5011' },
      }).GIT_WORKER_SHARDS,
    ).toEqual({
      default: { grpcAddress: '127.0.0.1:5010', httpUrl: 'http://127.0.0.1:5011' },
    });
    const env = {
      GIT_WORKER_SHARDS: 'default=gw-0.gw:4010;http://gw-0.gw:4011/, second=gw-1.gw:4010;http://gw-1.gw:4011',
    };
    expect(Object.entries(loadConfig(['GIT_WORKER_SHARDS'] as const, { env }).GIT_WORKER_SHARDS)).toEqual([
      ['default', { grpcAddress: 'gw-0.gw:4010', httpUrl: 'http://gw-0.gw:4011' }],
      ['second', { grpcAddress: 'gw-1.gw:4010', httpUrl: 'http://gw-1.gw:4011' }],
    ]);
    expect(loadConfig(['GIT_WORKER_NEW_PROJECT_SHARDS'] as const, { env }).GIT_WORKER_NEW_PROJECT_SHARDS).toEqual([
      'default',
      'second',
    ]);
    expect(
      loadConfig(['GIT_WORKER_NEW_PROJECT_SHARDS'] as const, {
        env: { ...env, GIT_WORKER_NEW_PROJECT_SHARDS: 'second' },
      }).GIT_WORKER_NEW_PROJECT_SHARDS,
    ).toEqual(['second']);
    for (const bad of [
      'default=gw:4010',
      'a=gw:4010;http://x,a=gw:4020;http://y',
      'Bad=gw:1;http://x',
      'a=gw:1;not a url',
      ',',
    ]) {
      expect(() => loadConfig(['GIT_WORKER_SHARDS'] as const, { env: { GIT_WORKER_SHARDS: bad } })).toThrow(
        /GIT_WORKER_SHARDS/,
      );
    }
  });

  it('strips a trailing slash from URLs', () => {
    expect(
      loadConfig(['EXTERNAL_URL'] as const, { env: { EXTERNAL_URL: 'https://git.example.com/' } }).EXTERNAL_URL,
    ).toBe('https://git.example.com');
  });
});

describe('the configuration table in docs/configuration.md', () => {
  it('is the one rendered from CONFIG_TABLE (regenerate with `node infra/local/dist/cli.js config-table`)', () => {
    const page = readFileSync(resolve(__dirname, '..', '..', '..', 'docs', 'configuration.md'), 'utf8');
    // The table as the page has it: from its header row to the first line that is not a row, so a
    // row left behind after the rendered ones fails as well as a changed one.
    const lines = page.split('\n');
    const start = lines.indexOf('| variable | default | meaning |');
    expect(start).toBeGreaterThan(-1);
    const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
    expect(lines.slice(start, end === -1 ? undefined : end).join('\n')).toBe(renderConfigTable());
    expect(Object.keys(CONFIG_TABLE).length).toBeGreaterThan(10);
  });
});
