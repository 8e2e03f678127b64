import type { AccessClient, Principal, ProjectAccess, Sql, UserProfile } from '@hub/common';
import type { ForeignNodeType, NodeLookup, NodeReference } from './node-lookup';
import DataLoader from 'dataloader';
import { findEventsByIds, type EventRow } from './db/events';
import type { NamespaceCopyRow } from './db/namespaces';
import { countForks, findShownProjectsByIds, type ProjectParent } from './db/projects';
import type { ProjectsService } from './projects-service';

/** What a resolver gets per request: the principal and batched loaders, nothing else. */
export interface ProjectsContext {
  principal: Principal;
  loaders: ReturnType<typeof createLoaders>;
}

const byKey = <K, V>(keys: readonly K[], rows: V[], key: (row: V) => K) => {
  const map = new Map(rows.map((row) => [key(row), row]));
  return keys.map((k) => map.get(k) ?? null);
};

/** One query (or one membership call) per kind per request, however many projects a list holds. */
export function createLoaders(
  sql: Sql,
  access: AccessClient,
  projects: ProjectsService,
  nodeLookup: NodeLookup,
  principal: Principal,
) {
  return {
    // node(id:)/nodes(ids:) for other owners' types: one check per owner per request.
    foreignNode: new DataLoader<{ type: ForeignNodeType; id: number; globalId: string }, NodeReference | null, string>(
      (wanted) => nodeLookup.visible(principal, wanted),
      { cacheKeyFn: (wanted) => wanted.globalId },
    ),
    namespaceById: new DataLoader<number, NamespaceCopyRow | null>(async (ids) => {
      const found = await projects.namespacesByIds(ids);
      return ids.map((id) => found.get(id) ?? null);
    }),
    // node(id:)/nodes(ids:) for feed entries.
    eventById: new DataLoader<number, EventRow | null>(async (ids) =>
      byKey(ids, await findEventsByIds(sql, ids), (event) => Number(event.id)),
    ),
    projectById: new DataLoader<number, ProjectParent | null>(async (ids) =>
      byKey(ids, await findShownProjectsByIds(sql, ids), (p) => p.id),
    ),
    forksCount: new DataLoader<number, number>(async (ids) => {
      const counts = await countForks(sql, ids);
      return ids.map((id) => counts.get(id) ?? 0);
    }),
    access: access.loader(principal) as DataLoader<number, ProjectAccess | null>,
  };
}

/** A user as this subgraph returns one: a bare reference, or an owner's copied profile. */
export type UserRef = { id: number } & Partial<UserProfile>;

/** A group as this subgraph knows it: the key the gateway hands over. */
export interface GroupRef {
  id: number;
}

/** A namespace as this subgraph returns one: projects' copy, or the key node(id:) answers with. */
export type NamespaceRef = { id: number } & Partial<NamespaceCopyRow>;

/** A milestone, label, snippet, note, hook, hook delivery or key as node(id:) returns one: the key its owner resolves it by. */
export interface OwnedNodeRef {
  id: number;
}

/** An issue or a merge request as the lookups by path return one: the key its owner resolves it by. */
export interface IidRef {
  projectId: number;
  iid: number;
}

/** A membership as Project.permissions shows it: v3's level number and notification setting. */
export interface AccessSettingRow {
  level: number;
  notificationLevel: number;
}
