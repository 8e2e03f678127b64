import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Contract } from './gateway-runtime';

const API_SCHEMA_FILES: Record<Contract, string> = {
  public: 'api-schema.graphql',
  internal: 'internal-api-schema.graphql',
};

/**
 * A contract's composed API schema (generated/, written at build time): `public` is what internal
 * teams see at /graphql; `internal` is what the facade's documents are typed and described against.
 */
export const readApiSchemaSdl = (contract: Contract) =>
  readFileSync(resolve(__dirname, '..', 'generated', API_SCHEMA_FILES[contract]), 'utf8');
