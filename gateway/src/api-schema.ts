import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The composed API schema's SDL (generated/api-schema.graphql, written at build time): what
 * clients of the graph see, and what the facade's documents are typed and described against.
 */
export const readApiSchemaSdl = () => readFileSync(resolve(__dirname, '..', 'generated', 'api-schema.graphql'), 'utf8');
