import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from '@hub/local';
import { Kind, parse, print, type DefinitionNode } from 'graphql';

/** One of the facade's own operations with the fragments it uses, so gateway and facade run the same query. */
export function facadeOperation(file: string, name: string): string {
  const document = parse(readFileSync(resolve(REPO_ROOT, 'rest-facade/src/operations', file), 'utf8'));
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === name);
  if (!operation) throw new Error(`no operation ${name} in ${file}`);
  const wanted: DefinitionNode[] = [operation];
  for (let i = 0; i < wanted.length; i++) {
    for (const match of print(wanted[i]).matchAll(/\.\.\.\s*([_A-Za-z][_0-9A-Za-z]*)/g)) {
      const fragment = fragments.get(match[1]);
      if (fragment && !wanted.includes(fragment)) wanted.push(fragment);
    }
  }
  return print({ ...document, definitions: wanted });
}
