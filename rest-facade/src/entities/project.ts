/**
 * GitLab v3's Project entity (lib/api/entities.rb): the documents fetch every field under its v3
 * name; this decides what a response shows.
 */
/**
 * `forked_from_project` appears only on forks, as in GitLab; `owner` only on personal projects
 * (7.14 exposed it `unless project.group`; a group project's owner is null in the graph);
 * `permissions` only on GET /projects/:id.
 */
export function presentProject<T extends { forked_from_project?: unknown; owner?: unknown }>(project: T) {
  const { forked_from_project, ...rest } = project;
  const shown = rest.owner === null ? Object.fromEntries(Object.entries(rest).filter(([key]) => key !== 'owner')) : rest;
  return (forked_from_project ? { ...shown, forked_from_project } : shown) as Omit<T, 'forked_from_project'>;
}
