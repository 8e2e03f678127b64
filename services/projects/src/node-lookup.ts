import {
  DomainError,
  ErrorCode,
  NODE_OWNERS,
  PRINCIPAL_HEADER,
  requestIdHeaders,
  signPrincipal,
  type NodeType,
  type Principal,
} from '@hub/common';
import { Pool } from 'undici';

/**
 * What `node(id:)` answers with for an object another subgraph owns: the keys this subgraph
 * declares for the type, from which the gateway asks the owner for everything else.
 */
export type NodeReference =
  | {
      __typename: Exclude<ForeignNodeType, 'Issue' | 'MergeRequest'>;
      id: number;
    }
  | { __typename: 'Issue' | 'MergeRequest'; projectId: number; iid: number };

/** The Node types projects owns and answers itself (Project, ProjectEvent); the others are asked of their owners. */
type OwnNodeType = { [T in NodeType]: (typeof NODE_OWNERS)[T] extends 'projects' ? T : never }[NodeType];
export type ForeignNodeType = Exclude<NodeType, OwnNodeType>;
type Owner = Exclude<(typeof NODE_OWNERS)[NodeType], 'projects'>;

// The keys this subgraph's stub of each type is declared with, asked of the owner alongside the check.
const KEYS_ASKED: Record<Owner, string> = {
  identity: '__typename',
  notes: '__typename ... on Issue { projectId iid }',
  mergerequests: '__typename ... on MergeRequest { projectId iid }',
  hooks: '__typename',
};

/**
 * `node(id:)` must answer null for an object the caller may not see exactly as for one that does
 * not exist. A reference returned unchecked would come back from the gateway as an object holding
 * only its id, so this subgraph first asks the type's owner: its own `_entities` with the global id
 * as the representation, signed with the caller's principal. The owner applies the visibility rule
 * it applies everywhere, and answers null for what the caller may not see.
 */
export function createNodeLookup(options: { ownerUrls: Record<Owner, string>; secret: string }) {
  const pools = Object.fromEntries(
    Object.entries(options.ownerUrls).map(([owner, url]) => [
      owner,
      new Pool(url, { connections: 16, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000 }),
    ]),
  ) as Record<Owner, Pool>;

  /** For each `[type, databaseId, globalId]`, in order: its reference, or null when the caller may not see it. */
  async function visible(
    principal: Principal,
    wanted: readonly { type: ForeignNodeType; id: number; globalId: string }[],
  ): Promise<(NodeReference | null)[]> {
    const answers: (NodeReference | null)[] = wanted.map(() => null);
    const byOwner = new Map<Owner, number[]>();
    wanted.forEach(({ type }, index) => {
      const owner = NODE_OWNERS[type] as Owner;
      byOwner.set(owner, [...(byOwner.get(owner) ?? []), index]);
    });
    await Promise.all(
      [...byOwner].map(async ([owner, indexes]) => {
        const entities = await askOwner(
          owner,
          principal,
          indexes.map((index) => ({ __typename: wanted[index]!.type, id: wanted[index]!.globalId })),
        );
        indexes.forEach((index, position) => {
          const found = entities[position];
          if (!found) return;
          const { type, id } = wanted[index]!;
          answers[index] =
            type === 'Issue' || type === 'MergeRequest'
              ? { __typename: type, projectId: found.projectId as number, iid: found.iid as number }
              : { __typename: type, id };
        });
      }),
    );
    return answers;
  }

  async function askOwner(
    owner: Owner,
    principal: Principal,
    representations: { __typename: string; id: string }[],
  ): Promise<(Record<string, unknown> | null)[]> {
    const query = `query($representations: [_Any!]!) { _entities(representations: $representations) { ${KEYS_ASKED[owner]} } }`;
    let payload: { data?: { _entities?: (Record<string, unknown> | null)[] } | null; errors?: unknown[] };
    try {
      const response = await pools[owner].request({
        path: '/graphql',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [PRINCIPAL_HEADER]: signPrincipal(principal, options.secret),
          ...requestIdHeaders(),
        },
        body: JSON.stringify({ query, variables: { representations } }),
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      payload = (await response.body.json()) as typeof payload;
    } catch {
      throw new DomainError(ErrorCode.SERVICE_UNAVAILABLE, '503 Service Unavailable', { service: owner });
    }
    // Owners answer null, without an error, for what the caller may not see; an error is a failure
    // (its database away), which fails the lookup rather than passing for an object that does not exist.
    const entities = payload.data?._entities;
    if (payload.errors?.length || !Array.isArray(entities) || entities.length !== representations.length)
      throw new DomainError(ErrorCode.SERVICE_UNAVAILABLE, '503 Service Unavailable', { service: owner });
    return entities;
  }

  return { visible, close: () => Promise.all(Object.values(pools).map((pool) => pool.close())) };
}

export type NodeLookup = ReturnType<typeof createNodeLookup>;
