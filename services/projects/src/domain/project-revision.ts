import { createHash } from 'node:crypto';

/** How the viewer sees a project's fork source: part of what its forkedFromProject shows. */
export type SourceView = 'no fork' | 'shown' | 'hidden';

const SOURCE_MARKS: Record<SourceView, string> = { 'no fork': '', shown: '.s', hidden: '.h' };

/**
 * Project.revision: which version of every row the project's fields are read from, as the read
 * that found it saw them (db/projects.ts, revisionDigest), with what else the shown values depend
 * on: the external URL the URLs are made with (a redeploy under another URL must not reuse
 * renderings made under the old one) and, for a fork, whether this viewer may see the source.
 */
export function revisionsAt(externalUrl: string) {
  const urlMark = createHash('sha1').update(externalUrl).digest('base64url').slice(0, 8);
  return (digest: string, source: SourceView) => `${digest}.${urlMark}${SOURCE_MARKS[source]}`;
}
