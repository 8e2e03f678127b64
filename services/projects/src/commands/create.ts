import {
  AccessLevel,
  groupAccessLookup,
  invalid,
  notFound,
  recordNotFound,
  requireAdmin,
  requireUser,
  type NamespaceSummary,
  type Principal,
} from '@hub/common';
import {
  pathFromName,
  validateProjectAttributes,
  visibilityOf,
  type ProjectAttributes,
} from '../domain/project-attributes';
import { insertProject } from './insert';
import type { CommandKit } from './kit';

/** GitLab's create_projects on a namespace: its owner, a group's Masters and Owners, admins. */
async function mayCreateIn(kit: CommandKit, principal: Principal, namespace: NamespaceSummary): Promise<boolean> {
  if (principal.isAdmin) return true;
  if (namespace.kind === 'user') return namespace.ownerId === principal.userId;
  const { access } = await kit.deps.membership.call(groupAccessLookup, {
    userId: principal.userId,
    groupIds: [namespace.id],
  });
  return (access[0]?.level ?? 0) >= AccessLevel.MASTER;
}

/** GitLab's create: the caller's namespace unless another one they own (any, for admins) is named. */
export const create =
  (kit: CommandKit) =>
  async (principal: Principal, attrs: ProjectAttributes & { namespaceId?: number | null }, forUserId?: number) => {
    requireUser(principal);
    let namespace: NamespaceSummary | undefined;
    if (forUserId !== undefined) {
      requireAdmin(principal);
      namespace = await kit.personalNamespace(forUserId);
      // GitLab 7.14 looked the user up with User.find: RecordNotFound's answer.
      if (!namespace) throw recordNotFound();
    } else if (attrs.namespaceId !== undefined && attrs.namespaceId !== null) {
      [namespace] = await kit.lookupNamespaces({ ids: [attrs.namespaceId] });
      if (!namespace || !(await mayCreateIn(kit, principal, namespace))) throw invalid({ namespace: ['is not valid'] });
    } else {
      namespace = await kit.personalNamespace(principal.userId!);
      if (!namespace) throw notFound('Namespace');
    }
    validateProjectAttributes(attrs, true);
    const name = attrs.name!;
    const path = attrs.path ?? pathFromName(name);
    if (path === '') throw invalid({ path: ["can't be blank"] });
    return insertProject(
      kit,
      principal,
      namespace,
      {
        name,
        path,
        description: attrs.description ?? null,
        defaultBranch: attrs.defaultBranch ?? 'master',
        visibilityLevel: await kit.deps.visibility.forNewProject(
          principal,
          visibilityOf(attrs),
          forUserId === undefined ? undefined : { id: forUserId, identity: kit.deps.identity },
        ),
        issuesEnabled: attrs.issuesEnabled ?? true,
        mergeRequestsEnabled: attrs.mergeRequestsEnabled ?? true,
        wikiEnabled: attrs.wikiEnabled ?? true,
        snippetsEnabled: attrs.snippetsEnabled ?? false,
        archived: false,
        importUrl: attrs.importUrl ?? null,
        forkedFromProjectId: null,
      },
      forUserId !== undefined ? { id: forUserId, username: namespace.path } : undefined,
    );
  };
