/**
 * GitLab v3's Project entity (lib/api/entities.rb): the documents fetch every field under its v3
 * name; this decides what a response shows.
 */
/** `forked_from_project` appears only on forks, as in GitLab; `permissions` only on GET /projects/:id. */
export function presentProject<T extends { forked_from_project?: unknown }>(project: T) {
  const { forked_from_project, ...rest } = project;
  return forked_from_project ? { ...rest, forked_from_project } : rest;
}
