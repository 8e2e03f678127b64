export default async function subgraphTeardown(): Promise<void> {
  await (globalThis as { __hubSubgraphPg?: { stop: () => Promise<void> } }).__hubSubgraphPg?.stop();
}
