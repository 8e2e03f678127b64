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

/** GitLab's name_with_namespace: the namespace's human name, then the project's. */
export const nameWithNamespaceOf = (p: Pick<ProjectRow, 'namespaceName' | 'name'>) => `${p.namespaceName} / ${p.name}`;
