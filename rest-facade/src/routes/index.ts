import type { Route } from '../route';
import { commitRoutes } from './commits';
import { fileRoutes } from './files';
import { hookRoutes } from './hooks';
import { issueRoutes } from './issues';
import { memberRoutes } from './members';
import { mergeRequestRoutes } from './merge-requests';
import { namespaceRoutes } from './namespaces';
import { noteRoutes } from './notes';
import { projectRoutes } from './projects';
import { repositoryRoutes } from './repository';
import { snippetRoutes } from './snippets';
import { sessionRoutes } from './session';
import { userRoutes } from './users';

export { oauthTokenRoute } from './oauth';

/** Every route under /api/v3. */
export const apiRoutes: Route[] = [...userRoutes, ...sessionRoutes, ...namespaceRoutes, ...projectRoutes, ...memberRoutes, ...hookRoutes, ...repositoryRoutes, ...commitRoutes, ...fileRoutes, ...mergeRequestRoutes, ...issueRoutes, ...snippetRoutes, ...noteRoutes];
