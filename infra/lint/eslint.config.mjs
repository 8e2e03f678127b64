// The tree's lint rules (the root's eslint.config.mjs points here, where typescript-eslint and its
// TypeScript 5 live). Syntax-level rules only: type-aware rules would need TypeScript 5 to build
// every program again, while the type-check itself runs on TypeScript 7 (`npm run typecheck`).
import graphqlPlugin from '@graphql-eslint/eslint-plugin';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const CODE = ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.cjs', '**/*.mjs'];

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', '**/coverage/**', '.data/**', 'bench/results*/**'],
  },
  // The code's rules, for code only (the GraphQL schema below has its own parser and rules).
  ...[js.configs.recommended, ...tseslint.configs.recommended].map((config) => ({ ...config, files: CODE })),
  {
    files: CODE,
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // An unused value is dead code; a leading underscore says "kept on purpose" (a handler's arity).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Types are imported as types, so a type-only import never loads a module at run time.
      // (`import()` in a type stays allowed: it names what a lazy require loads.)
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      // Validators name the control characters they refuse.
      'no-control-regex': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  {
    // The public GraphQL schema as internal teams read it (checked in; gateway/scripts/public-schema.cjs
    // keeps it equal to the build's): described throughout, and named as GraphQL schemas are.
    files: ['gateway/api-schema.graphql'],
    languageOptions: {
      parser: graphqlPlugin.parser,
      // The rules that read the schema read this file itself (resolved from the repository root).
      parserOptions: { graphQLConfig: { schema: 'gateway/api-schema.graphql' } },
    },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: {
      '@graphql-eslint/require-description': [
        'error',
        {
          types: true,
          rootField: true,
          FieldDefinition: true,
          InputValueDefinition: true,
          EnumValueDefinition: true,
          DirectiveDefinition: true,
        },
      ],
      '@graphql-eslint/naming-convention': [
        'error',
        {
          types: 'PascalCase',
          FieldDefinition: 'camelCase',
          InputValueDefinition: 'camelCase',
          EnumValueDefinition: 'UPPER_CASE',
          allowLeadingUnderscore: false,
          allowTrailingUnderscore: false,
        },
      ],
      '@graphql-eslint/require-deprecation-reason': 'error',
      '@graphql-eslint/no-hashtag-description': 'error',
      '@graphql-eslint/unique-enum-value-names': 'error',
    },
  },
  {
    files: ['**/*.cjs', '**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests and their harnesses reach into answers they have just checked the shape of, and load
    // modules late on purpose (after an environment is set, or one test at a time).
    files: ['**/*.test.ts', 'test/**/*.ts', '**/src/testing/**/*.ts', 'infra/k8s/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
