import type { ParamDoc } from '../route';
import { PROJECT_REF } from '../param-docs';

/** An express path (`/projects/:id`) as an OpenAPI path template (`/projects/{id}`). */
export const templateOf = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

export const pathParamNames = (path: string) => [...path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]);

const integer = (description: string): ParamDoc => ({ type: 'integer', description });

/** What an id parameter names: `hook_id` a hook; `:id` what the segment before it lists. */
function thingOf(name: string, path: string): string {
  if (name === 'uid') return 'user';
  if (name !== 'id') return name.slice(0, -'_id'.length).replace(/_/g, ' ');
  const segments = path.split('/');
  return segments[segments.indexOf(':id') - 1].replace(/s$/, '');
}

/**
 * What a path parameter means by its name, where the route says nothing else: `:id` names a
 * project or a group by id or path below /projects and /groups, and a record by id elsewhere;
 * `…_id` and `uid` are ids. `Params.id` reads ids: one that is not a positive number is a 404.
 */
export function pathParamDoc(name: string, path: string): ParamDoc {
  if (name === 'id' && path.startsWith('/projects')) return PROJECT_REF;
  if (name === 'id' && path.startsWith('/groups'))
    return { type: 'string', description: 'The group: its id, or its path.' };
  if (name === 'id' || name === 'uid' || name.endsWith('_id')) return integer(`The ${thingOf(name, path)}'s id.`);
  if (name === 'branch') return { type: 'string', description: 'A branch name; slashes in it may be sent unencoded.' };
  if (name === 'sha')
    return {
      type: 'string',
      description: path.includes('raw_blobs') ? "The blob's sha." : 'A commit sha, or a branch or tag name.',
    };
  return { type: 'string' };
}
