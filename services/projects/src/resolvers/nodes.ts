import { accessLevelEnumOf, requireGlobalId, requireGlobalIds, toGlobalId, userStateEnumOf } from '@hub/common';
import type { ProjectsContext } from '../context';
import type {
  AccessSettingResolvers,
  NodeResolvers,
  QueryResolvers,
  ResolversInterfaceTypes,
  UserResolvers,
} from '../generated/graphql';
import { visibleProject } from './visible-project';

/**
 * `node(id:)` and `nodes(ids:)`: projects it answers itself; for another owner's type it answers
 * the keys the gateway needs to ask that owner, once the owner said the caller may see it.
 */
export const nodeQueries: Pick<QueryResolvers, 'node' | 'nodes'> = {
  node: (_parent, { id }, context) => nodeOf(requireGlobalId(id, 'id'), id, context),
  nodes: (_parent, { ids }, context) => {
    const parsed = requireGlobalIds(ids);
    return Promise.all(parsed.map((node, index) => nodeOf(node, ids[index]!, context)));
  },
};

async function nodeOf(
  node: ReturnType<typeof requireGlobalId>,
  globalId: string,
  context: ProjectsContext,
): Promise<ResolversInterfaceTypes<never>['Node'] | null> {
  if (node.type === 'Project') {
    const project = await visibleProject(await context.loaders.projectById.load(node.id), context);
    if (!project) return null;
    // Tagged for Node's __resolveType; a copy, as the loader's row is shared by the request.
    const tagged = { ...project, __typename: 'Project' as const };
    return tagged;
  }
  if (node.type === 'ProjectEvent') {
    const event = await context.loaders.eventById.load(node.id);
    // Project.events' rule: whoever may see the project sees its feed. An entry outlives no project
    // (deleted with it), so a missing project is a race with its deletion: null too.
    if (!event || !(await visibleProject(await context.loaders.projectById.load(event.projectId), context)))
      return null;
    const tagged = { ...event, __typename: 'ProjectEvent' as const };
    return tagged;
  }
  return context.loaders.foreignNode.load({ type: node.type, id: node.id, globalId });
}

export const nodeResolvers: NodeResolvers = {
  __resolveType: (node) => (node as unknown as { __typename: 'Project' | 'ProjectEvent' }).__typename,
};

/** The ids of the types this subgraph references: their database id, and the global one for Project. */
export const projectIds = {
  id: (project: { id: number }) => toGlobalId('Project', project.id),
  databaseId: (project: { id: number }) => project.id,
};
export const referencedIds = { databaseId: (reference: { id: number }) => reference.id };

/**
 * Owners as projects' copy has them (the @provides on Project.owner): the state in the public
 * enum and as v3 spells it. Only asked for where the copy is there.
 */
export const copiedUserResolvers: UserResolvers = {
  ...referencedIds,
  state: (user) => userStateEnumOf(user.state!),
  v3State: (user) => user.state!,
};

/** A membership's level, in the public enum and as v3's number. */
export const accessSettingResolvers: AccessSettingResolvers = {
  accessLevel: (setting) => accessLevelEnumOf(setting.level),
  v3AccessLevel: (setting) => setting.level,
};
