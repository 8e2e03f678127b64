import type { Route } from '../route';
import { commitRoutes } from './commits';
import { fileRoutes } from './files';
import { groupRoutes } from './groups';
import { hookRoutes } from './hooks';
import { issueRoutes } from './issues';
import { keyRoutes } from './keys';
import { labelRoutes } from './labels';
import { memberRoutes } from './members';
import { mergeRequestRoutes } from './merge-requests';
import { milestoneRoutes } from './milestones';
import { namespaceRoutes } from './namespaces';
import { noteRoutes } from './notes';
import { projectRoutes } from './projects';
import { repositoryRoutes } from './repository';
import { snippetRoutes } from './snippets';
import { systemHookRoutes } from './system-hooks';
import { sessionRoutes } from './session';
import { settingsRoutes } from './settings';
import { userRoutes } from './users';

export { oauthTokenRoute } from './oauth';

/** Every route under /api/v3 by the part of the API it belongs to (its tag in the OpenAPI description). */
export const apiRouteGroups: Record<string, Route[]> = {
  users: userRoutes,
  session: sessionRoutes,
  namespaces: namespaceRoutes,
  groups: groupRoutes,
  projects: projectRoutes,
  members: memberRoutes,
  hooks: hookRoutes,
  repository: repositoryRoutes,
  commits: commitRoutes,
  files: fileRoutes,
  merge_requests: mergeRequestRoutes,
  issues: issueRoutes,
  snippets: snippetRoutes,
  notes: noteRoutes,
  settings: settingsRoutes,
  system_hooks: systemHookRoutes,
  labels: labelRoutes,
  milestones: milestoneRoutes,
  keys: keyRoutes,
};

/** Every route under /api/v3. */
export const apiRoutes: Route[] = Object.values(apiRouteGroups).flat();
