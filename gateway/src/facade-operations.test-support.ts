import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Kind, parse, visit, type DefinitionNode, type DocumentNode, type FragmentDefinitionNode } from 'graphql';

/** Each named operation the REST facade sends, with only the fragments it spreads (transitively). */
export function facadeOperations(): Array<{ name: string; document: DocumentNode }> {
  const dir = resolve(__dirname, '..', '..', 'rest-facade', 'src', 'operations');
  const definitions = readdirSync(dir)
    .filter((file) => file.endsWith('.graphql'))
    .flatMap((file) => parse(readFileSync(resolve(dir, file), 'utf8')).definitions);
  const fragments = new Map(
    definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const spreads = (node: DefinitionNode, found: Set<string>): Set<string> => {
    visit(node, {
      FragmentSpread: (spread) => {
        if (found.has(spread.name.value)) return;
        found.add(spread.name.value);
        spreads(fragments.get(spread.name.value)!, found);
      },
    });
    return found;
  };
  return definitions
    .filter(
      (d): d is DefinitionNode & { kind: Kind.OPERATION_DEFINITION; name: { value: string } } =>
        d.kind === Kind.OPERATION_DEFINITION && !!d.name,
    )
    .map((operation) => ({
      name: operation.name.value,
      document: {
        kind: Kind.DOCUMENT,
        definitions: [operation, ...[...spreads(operation, new Set())].map((name) => fragments.get(name)!)],
      },
    }));
}
