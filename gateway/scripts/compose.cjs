// Composes the supergraph from every subgraph's SDL at build time. A subgraph change that breaks
// composition fails the build here, before anything is deployed. Writes generated/supergraph.graphql
// (served by the gateway) and generated/api-schema.graphql (what clients see; the facade's
// operations are validated and typed against it).
const { readFileSync, writeFileSync, mkdirSync } = require('node:fs');
const { resolve } = require('node:path');
const { composeServices } = require('@apollo/composition');
const { parse, printSchema } = require('graphql');

// Arguments (for tests): a subgraph list and an output folder; paths in the list are relative to the repository.
const root = resolve(__dirname, '..', '..');
const listFile = resolve(process.argv[2] ?? resolve(__dirname, '..', 'subgraphs.json'));
const subgraphs = JSON.parse(readFileSync(listFile, 'utf8'));

const result = composeServices(
  subgraphs.map(({ name, sdl }) => ({
    name,
    url: `http://${name}.invalid/graphql`, // replaced at run time from the subgraph's URL variable
    typeDefs: parse(readFileSync(resolve(root, sdl), 'utf8')),
  })),
);
if (result.errors) {
  for (const error of result.errors) console.error(`composition error: ${error.message}`);
  process.exit(1);
}
const out = resolve(process.argv[3] ?? resolve(__dirname, '..', 'generated'));
mkdirSync(out, { recursive: true });
writeFileSync(resolve(out, 'supergraph.graphql'), result.supergraphSdl);
writeFileSync(resolve(out, 'api-schema.graphql'), printSchema(result.schema.toAPISchema().toGraphQLJSSchema()));
console.log(`composed ${subgraphs.length} subgraph(s) into ${out}`);
