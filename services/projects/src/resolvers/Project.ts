import { randomUUID } from 'node:crypto';
import { Visibility, can, referencedDatabaseId, visibilityEnumOf } from '@hub/common';
import { fullPathOf, nameWithNamespaceOf, projectUrlsAt } from '../domain/project-urls';
import { revisionsAt } from '../domain/project-revision';
import type { ProjectParent } from '../db/projects';
import type { ProjectsContext } from '../context';
import type { ProjectResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { projectEventList } from './project-lists';
import { visibleProject } from './visible-project';
import { projectIds } from './nodes';

export const createProjectResolvers = ({ sql, cursors, externalUrl }: ResolverDeps): ProjectResolvers => {
  const urlsOf = projectUrlsAt(externalUrl);
  const revisionOf = revisionsAt(externalUrl);
  /** Project.revision of a row a write returned (without the digest), or of a fork. */
  async function loadedRevision(p: ProjectParent, context: ProjectsContext): Promise<string> {
    // Deleted while this request ran: a revision no rendering is ever kept under, rather than an
    // error that would fail the whole page.
    const digest = p.revision ?? (await context.loaders.projectById.load(p.id))?.revision ?? `gone.${randomUUID()}`;
    if (p.forkedFromProjectId === null) return revisionOf(digest, 'no fork');
    const source = await visibleProject(await context.loaders.projectById.load(p.forkedFromProjectId), context);
    return revisionOf(digest, source ? 'shown' : 'hidden');
  }

  return {
    // Other subgraphs only reference projects the viewer reached through this one, but the check
    // is cheap and keeps a reference from revealing a private project.
    // A global id comes from node(id:) through the gateway; both kinds get the same check.
    __resolveReference: async (reference, context) => {
      const id = referencedDatabaseId('Project', reference as { id?: unknown; databaseId?: unknown });
      return id === null ? null : visibleProject(await context.loaders.projectById.load(id), context);
    },
    ...projectIds,

    public: (p) => p.visibilityLevel === Visibility.PUBLIC,
    visibility: (p) => visibilityEnumOf(p.visibilityLevel),
    sshUrlToRepo: (p) => urlsOf(p).sshUrlToRepo,
    httpUrlToRepo: (p) => urlsOf(p).httpUrlToRepo,
    webUrl: (p) => urlsOf(p).webUrl,
    // Both from projects' copy of the namespace (see the @provides in the schema).
    // Plain values when the read brought the namespace copy (graphql-js then resolves the field
    // without a promise); the loader when it did not.
    namespace: (p, _args, { loaders }) =>
      p.namespaceCopy ??
      loaders.namespaceById.load(p.namespaceId).then((namespace) => {
        if (!namespace) throw new Error(`namespace ${p.namespaceId} of project ${p.id} is unknown to identity`);
        return namespace;
      }),
    owner: (p, _args, { loaders }) =>
      p.namespaceCopy
        ? p.namespaceCopy.owner
        : loaders.namespaceById.load(p.namespaceId).then((namespace) => namespace?.owner ?? null),
    nameWithNamespace: (p, _args, { loaders }) =>
      p.namespaceCopy
        ? nameWithNamespaceOf(p, p.namespaceCopy)
        : loaders.namespaceById.load(p.namespaceId).then((namespace) => nameWithNamespaceOf(p, namespace)),
    pathWithNamespace: fullPathOf,
    avatarUrl: () => null,
    starCount: () => 0,
    forksCount: (p, _args, { loaders }) => p.forksCount ?? loaders.forksCount.load(p.id),
    forkedFromProject: async (p, _args, context) =>
      p.forkedFromProjectId === null
        ? null
        : visibleProject(await context.loaders.projectById.load(p.forkedFromProjectId), context),

    // A plain value for a read's row of a project that is no fork, the usual case on a list page.
    revision: (p, _args, context) =>
      p.revision !== undefined && p.forkedFromProjectId === null
        ? revisionOf(p.revision, 'no fork')
        : loadedRevision(p, context),

    permissions: async (p, _args, { loaders }) => {
      const access = await loaders.access.load(p.id);
      return {
        projectAccess:
          access?.memberLevel != null
            ? { level: access.memberLevel, notificationLevel: access.notificationLevel ?? 3 }
            : null,
        // Group members' notification levels are not kept: GitLab's default, global (3).
        groupAccess: access?.groupLevel != null ? { level: access.groupLevel, notificationLevel: 3 } : null,
      };
    },

    canDownloadCode: async (p, _args, { principal, loaders }) => {
      const access = await loaders.access.load(p.id);
      return access !== null && can(access, principal, 'download_code');
    },

    events: (p, args) => projectEventList({ sql, cursors }, p.id, args),
  };
};
