// End-to-end tests against the containerized system, run by `npm run test:containers`
// (infra/docker/test-containers.cjs starts the containers first); not part of `npm test`.
module.exports = {
  rootDir: '../..',
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  testMatch: ['<rootDir>/test/containers/**/*.test.ts'],
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
  testTimeout: 180000,
};
