import type { NamespaceCopyRow } from '../db/namespaces';
import type { ProjectRow } from '../db/projects';

export const fullPathOf = (p: Pick<ProjectRow, 'namespacePath' | 'path'>) => `${p.namespacePath}/${p.path}`;

/** The URLs projects are reached at, as users see them (web page, clone over HTTP and SSH). */
export function projectUrlsAt(externalUrl: string) {
  const sshHost = new URL(externalUrl).hostname;
  return (p: Pick<ProjectRow, 'namespacePath' | 'path'>) => {
    const fullPath = fullPathOf(p);
    return {
      webUrl: `${externalUrl}/${fullPath}`,
      httpUrlToRepo: `${externalUrl}/${fullPath}.git`,
      sshUrlToRepo: `git@${sshHost}:${fullPath}.git`,
    };
  };
}

/**
 * GitLab's Namespace#human_name: a personal namespace shows its owner's display name
 * (`Alice Liddell`, where its name and path are the username); a namespace without an owner, its
 * own name. The project's copy of the namespace name stands in while the copy is missing.
 */
export const humanNameOf = (
  p: Pick<ProjectRow, 'namespaceName'>,
  namespace: Pick<NamespaceCopyRow, 'name' | 'owner'> | null | undefined,
) => namespace?.owner?.name ?? namespace?.name ?? p.namespaceName;

/** GitLab's name_with_namespace: the namespace's human name, then the project's (`Alice Liddell / Proj`). */
export const nameWithNamespaceOf = (
  p: Pick<ProjectRow, 'namespaceName' | 'name'>,
  namespace: Pick<NamespaceCopyRow, 'name' | 'owner'> | null | undefined,
) => `${humanNameOf(p, namespace)} / ${p.name}`;
