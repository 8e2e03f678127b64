// Composes the supergraph from every subgraph's SDL at build time. A subgraph change that breaks
// composition, or one that composition only hints about, fails the build here, before anything is
// deployed. Two contracts of one graph are written to generated/:
//
// - public: what internal teams query at the gateway's /graphql. Elements a subgraph tags
//   `@tag(name: "internal")` (what only the REST facade needs: v3's page numbers, shard names,
//   authorization shortcuts) are made @inaccessible. supergraph.graphql, api-schema.graphql.
// - internal: the whole graph, for the facade alone (the gateway's /internal/graphql, or a gateway
//   embedded in the facade). supergraph-internal.graphql, internal-api-schema.graphql; the facade's
//   operations are validated and typed against it.
const { readFileSync, writeFileSync, mkdirSync } = require('node:fs');
const { resolve } = require('node:path');
const { composeServices } = require('@apollo/composition');
const { Kind, buildSchema, extendSchema, parse, printSchema, visit } = require('graphql');

// Arguments (for tests): a subgraph list and an output folder; paths in the list are relative to the repository.
const root = resolve(__dirname, '..', '..');
const listFile = resolve(process.argv[2] ?? resolve(__dirname, '..', 'subgraphs.json'));
const subgraphs = JSON.parse(readFileSync(listFile, 'utf8'));

const INTERNAL_TAG = 'internal';
const isInternalTag = (directive) =>
  directive.name.value === 'tag' &&
  directive.arguments?.some(
    (arg) => arg.name.value === 'name' && arg.value.kind === Kind.STRING && arg.value.value === INTERNAL_TAG,
  );
const directive = (name) => ({ kind: Kind.DIRECTIVE, name: { kind: Kind.NAME, value: name }, arguments: [] });

/** The public contract of a subgraph: what it tags internal is @inaccessible (imported for it). */
function publicContract(document) {
  return visit(document, {
    enter(node) {
      if (!node.directives?.some(isInternalTag)) return undefined;
      return { ...node, directives: [...node.directives, directive('inaccessible')] };
    },
    SchemaExtension(node) {
      return {
        ...node,
        directives: node.directives.map((link) => {
          if (link.name.value !== 'link') return link;
          return {
            ...link,
            arguments: link.arguments.map((arg) =>
              arg.name.value === 'import' && arg.value.kind === Kind.LIST
                ? {
                    ...arg,
                    value: {
                      ...arg.value,
                      values: [...arg.value.values, { kind: Kind.STRING, value: '@inaccessible' }],
                    },
                  }
                : arg,
            ),
          };
        }),
      };
    },
  });
}

/** Composes one contract; prints every error and hint and exits when there is any. */
function compose(contract, transform) {
  const result = composeServices(
    subgraphs.map(({ name, sdl }) => ({
      name,
      url: `http://${name}.invalid/graphql`, // replaced at run time from the subgraph's URL variable
      typeDefs: transform(parse(readFileSync(resolve(root, sdl), 'utf8'))),
    })),
  );
  const problems = [
    ...(result.errors ?? []).map((error) => `composition error (${contract}): ${error.message}`),
    ...(result.hints ?? []).map((hint) => `composition hint (${contract}, fails the build): ${hint.toString()}`),
  ];
  if (problems.length) {
    for (const problem of problems) console.error(problem);
    process.exit(1);
  }
  return { supergraph: result.supergraphSdl, api: printSchema(result.schema.toAPISchema().toGraphQLJSSchema()) };
}

const publicGraph = compose('public', publicContract);
const internalGraph = compose('internal', (document) => document);
const out = resolve(process.argv[3] ?? resolve(__dirname, '..', 'generated'));
mkdirSync(out, { recursive: true });
writeFileSync(resolve(out, 'supergraph.graphql'), publicGraph.supergraph);
// The public contract also has the gateway's own Subscription type, served over WebSocket by the
// gateway itself (src/live/): no subgraph owns it, so it joins the API schema after composition.
const subscriptionsSdl = readFileSync(resolve(__dirname, '..', 'src', 'live', 'subscriptions.graphql'), 'utf8');
writeFileSync(resolve(out, 'subscriptions.graphql'), subscriptionsSdl);
writeFileSync(
  resolve(out, 'api-schema.graphql'),
  printSchema(extendSchema(buildSchema(publicGraph.api), parse(subscriptionsSdl))),
);
writeFileSync(resolve(out, 'supergraph-internal.graphql'), internalGraph.supergraph);
writeFileSync(resolve(out, 'internal-api-schema.graphql'), internalGraph.api);
console.log(`composed ${subgraphs.length} subgraph(s) into ${out} (public and internal contracts)`);
