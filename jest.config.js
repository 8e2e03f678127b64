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
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      // Every answer of the facade a test gets is checked against its OpenAPI description.
      setupFilesAfterEnv: ['<rootDir>/test/support/openapi-setup.ts'],
    },
  ],
};
