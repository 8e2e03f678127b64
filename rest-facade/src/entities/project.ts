import { shownWhenSet, titled, withProperties, type JsonSchema } from '../openapi/json-schema';

/**
 * GitLab v3's Project entity (lib/api/entities.rb): the documents fetch every field under its v3
 * name; this decides what a response shows.
 */
/**
 * `forked_from_project` appears only on forks, as in GitLab; `owner` only on personal projects
 * (7.14 exposed it `unless project.group`; a group project's owner is null in the graph);
 * `permissions` only on GET /projects/:id.
 */
export function presentProject<T extends { forked_from_project?: unknown; owner?: unknown; revision?: unknown }>(
  project: T,
) {
  // One pass that copies the fields kept: this runs for every project of a list page, and rest
  // patterns and Object.entries were a tenth of the facade's time on a page of 100.
  const shown: Record<string, unknown> = {};
  for (const key in project) {
    // revision keys this replica's renderings (rendered.ts); it is not v3's.
    if (key === 'forked_from_project' || key === 'revision' || (key === 'owner' && project.owner === null)) continue;
    shown[key] = project[key];
  }
  if (project.forked_from_project) shown.forked_from_project = project.forked_from_project;
  return shown as Omit<T, 'forked_from_project' | 'revision'>;
}

/**
 * What presentProject does to the selected shape: owner and forked_from_project appear only when
 * set; the revision is not shown.
 */
export const projectSchema = (selected: JsonSchema) =>
  titled('Project', shownWhenSet(withProperties(selected, { revision: undefined }), ['owner', 'forked_from_project']));
