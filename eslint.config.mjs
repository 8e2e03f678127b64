// The rules live with the linter's own dependencies (infra/lint); see there.
export { default } from './infra/lint/eslint.config.mjs';
