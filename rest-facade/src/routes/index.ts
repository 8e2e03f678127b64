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

/** Every route under /api/v3. */
export const apiRoutes: Route[] = [
  ...userRoutes,
  ...sessionRoutes,
  ...namespaceRoutes,
  ...groupRoutes,
  ...projectRoutes,
  ...memberRoutes,
  ...hookRoutes,
  ...repositoryRoutes,
  ...commitRoutes,
  ...fileRoutes,
  ...mergeRequestRoutes,
  ...issueRoutes,
  ...snippetRoutes,
  ...noteRoutes,
  ...settingsRoutes,
  ...systemHookRoutes,
  ...labelRoutes,
  ...milestoneRoutes,
  ...keyRoutes,
];
