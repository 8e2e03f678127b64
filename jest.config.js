// Unit tests live beside the code; end-to-end tests under test/ boot the real stack once per
// run (global setup) and talk to it over HTTP only.
const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
  ],
};
const common = {
  testEnvironment: 'node',
  transform,
  // Workspace packages resolve to their TypeScript sources, as in the type-check.
  testEnvironmentOptions: { customExportConditions: ['development', 'node', 'require', 'default'] },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
};

/**
 * End-to-end files that boot stacks (or the launcher) of their own and never touch the shared one.
 * `npm test` runs them after the unit and subgraph tests, in that lane, beside the e2e lane: in
 * one lane the whole took over 20 minutes on 2 cores. With the first three only, the e2e lane
 * still ended about 150 s after the other (499 s against about 350 s); the last four were 88 s
 * of it.
 */
const OWN_STACKS = ['hooks-faults', 'chaos', 'backup-restore', 'outage', 'tracing', 'launcher', 'launcher-postgres'];

module.exports = {
  // Per test; the e2e stack boots once in global setup, outside this limit.
  testTimeout: 30000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/services/*/src/**/*.test.ts',
        '<rootDir>/protos/src/**/*.test.ts',
        '<rootDir>/gateway/**/*.test.ts',
        '<rootDir>/rest-facade/src/**/*.test.ts',
        '<rootDir>/infra/local/src/**/*.test.ts',
        '<rootDir>/infra/k8s/**/*.test.ts',
        '<rootDir>/test/bench/**/*.test.ts',
      ],
      testPathIgnorePatterns: ['\\.subgraph\\.test\\.ts$'],
    },
    {
      ...common,
      // One subgraph at a time through executeOperation, over a real Postgres schema of its own.
      displayName: 'subgraph',
      testMatch: ['<rootDir>/services/*/src/**/*.subgraph.test.ts'],
      globalSetup: '<rootDir>/test/support/subgraph-setup.ts',
      globalTeardown: '<rootDir>/test/support/subgraph-teardown.ts',
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts', '<rootDir>/test/integration/**/*.test.ts'],
      testPathIgnorePatterns: OWN_STACKS.map((name) => `<rootDir>/test/e2e/${name}\\.test\\.ts$`),
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      // Every answer of the facade a test gets is checked against its OpenAPI description.
      setupFilesAfterEnv: ['<rootDir>/test/support/openapi-setup.ts'],
    },
    {
      ...common,
      displayName: 'stacks',
      // Not checked against the OpenAPI description, which is read from the shared stack: these
      // test faults, restarts and restores, and their routes' answers are checked in the e2e files.
      testMatch: OWN_STACKS.map((name) => `<rootDir>/test/e2e/${name}.test.ts`),
    },
  ],
};
