import type { Params } from '../params';
import type { ParamDoc, Route } from '../route';
import { apiRoutes, oauthTokenRoute } from '../routes';
import { pathParamDoc, pathParamNames } from './paths';

/** A value that answers every property read, call and iteration: a gateway answer, to a handler that only reads it. */
function anything(): unknown {
  return new Proxy(function () {}, {
    get: (_target, key) => {
      if (key === Symbol.iterator) return function* () {};
      if (key === 'then' || key === 'toJSON') return undefined;
      if (key === Symbol.toPrimitive) return () => 1;
      if (key === 'length' || key === 'total' || key === 'id') return 1;
      return anything();
    },
    apply: () => anything(),
  });
}

type Kind = 'string' | 'integer' | 'boolean' | 'list' | 'id' | 'read';
interface Read {
  kinds: Set<Kind>;
  enum?: readonly string[];
  required?: boolean;
}

/**
 * What a handler reads, by running it with a recording stand-in for Params (answering values
 * that let it go on: digits, true, the first allowed value) and a gateway that answers anything.
 */
async function readsOf(route: Route): Promise<Map<string, Read>> {
  const reads = new Map<string, Read>();
  const note = <T>(name: string, kind: Kind, value: T, extra: Partial<Read> = {}): T => {
    const read = reads.get(name) ?? { kinds: new Set<Kind>() };
    read.kinds.add(kind);
    reads.set(name, { ...read, ...extra });
    return value;
  };
  const recorder = {
    has: (name: string) => note(name, 'read', true),
    sentEmpty: (name: string) => note(name, 'read', false),
    string: (name: string) => note(name, 'string', '1'),
    int: (name: string) => note(name, 'integer', 1),
    bool: (name: string) => note(name, 'boolean', true),
    id: (name: string) => note(name, 'id', 1),
    oneOf: (name: string, allowed: readonly string[]) => note(name, 'string', allowed[0], { enum: allowed }),
    list: (name: string) => note(name, 'list', ['1']),
    window: () => (note('page', 'integer', 1), note('per_page', 'integer', 20), { page: 1, perPage: 20, offset: 0 }),
    require: (...names: string[]) => names.forEach((name) => note(name, 'read', undefined, { required: true })),
    linkParams: () => [],
  };
  try {
    await route.handle(recorder as unknown as Params, async () => anything() as never);
  } catch {
    // A route that refuses (405) reads nothing more.
  }
  return reads;
}

/** The declaration a read should have: its type, its closed set, whether Params.require demands it. */
function expectedDoc(read: Read): Partial<ParamDoc> {
  const { kinds } = read;
  const type = kinds.has('list')
    ? 'list'
    : kinds.has('string')
      ? 'string'
      : kinds.has('boolean')
        ? 'boolean'
        : kinds.has('integer') || kinds.has('id')
          ? 'integer'
          : undefined;
  return { ...(type && { type }), ...(read.enum && { enum: read.enum }), ...(read.required && { required: true }) };
}

const declared = (doc: ParamDoc) => ({
  type: doc.type,
  ...(doc.enum && { enum: doc.enum }),
  ...(doc.required && { required: true }),
});

describe("each route's declared parameters", () => {
  it.each([...apiRoutes, oauthTokenRoute].map((route) => [`${route.method.toUpperCase()} ${route.path}`, route]))(
    '%s: are the ones its handler reads, with their types',
    async (_name, route) => {
      const reads = await readsOf(route as Route);
      const paths = pathParamNames((route as Route).path);
      const docs = (route as Route).params ?? {};
      const queryOrBody = (names: Iterable<string>) => [...names].filter((name) => !paths.includes(name)).sort();
      expect(queryOrBody(Object.keys(docs))).toEqual(queryOrBody(reads.keys()));
      for (const [name, read] of reads) {
        const doc = docs[name] ?? pathParamDoc(name, (route as Route).path);
        const expected = expectedDoc(read);
        // A parameter only tested for presence (`has`, `sentEmpty`) has no type to compare.
        if (expected.type === undefined) continue;
        expect([name, paths.includes(name) ? { type: doc.type } : declared(doc)]).toEqual([
          name,
          paths.includes(name) ? { type: expected.type } : expected,
        ]);
      }
    },
  );
});
