import { projectListScope, projectScope, projectWithParentScope } from '../conditional/version-scopes';
import {
  CreateForkRelationDocument,
  CreateProjectDocument,
  CreateProjectForUserDocument,
  DeleteForkRelationDocument,
  DeleteProjectDocument,
  ForkProjectDocument,
  GetProjectDocument,
  ListProjectsDocument,
  ProjectEventsDocument,
  ProjectIdDocument,
  UpdateProjectDocument,
  ViewerIsAdminDocument,
  type ProjectOrder,
  type ProjectScope,
  type Visibility,
} from '../generated/operations';
import { presentProject, projectSchema } from '../entities/project';
import { renderedProjectPage } from './rendered-projects';
import { mapItems } from '../openapi/json-schema';
import { bool, int, oneOf, PAGE, required, str } from '../param-docs';
import { payloadEntity, type GatewayCall } from '../gateway-client';
import { defined, type Params } from '../params';
import type { Route } from '../route';
import { v3Error } from '../v3-errors';
import { PROJECT_NOT_FOUND, projectIdOf, projectKey } from './project-key';

/**
 * The project of an admin-only route. GitLab checked `authenticated_as_admin!` before looking the
 * project up, so anyone else gets 403 whatever :id names; the services check the admin first for
 * an id, and a path that names nothing the caller can see is decided here the same way.
 */
async function adminRouteProjectId(p: Params, gateway: GatewayCall): Promise<number> {
  const key = projectKey(p);
  if (key.id !== null) return key.id;
  const [{ project }, { viewer }] = await Promise.all([
    gateway(ProjectIdDocument, { fullPath: key.fullPath! }),
    gateway(ViewerIsAdminDocument, {}),
  ]);
  if (!viewer?.is_admin) throw v3Error(403, '403 Forbidden');
  if (!project) throw PROJECT_NOT_FOUND();
  return project.id;
}

const LIST_ORDERS = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'];
const SEARCH_ORDERS = ['id', 'name', 'created_at', 'last_activity_at'];

/** The parameters listVariables reads. */
const listParams = (orders: string[]) => ({
  archived: bool('Only archived (true) or only active (false) projects.'),
  search: str('Part of the name, path or description.'),
  order_by: oneOf(orders, 'created_at by default.'),
  sort: oneOf(['asc', 'desc'], 'desc by default.'),
  ci_enabled_first: bool(),
  ...PAGE,
});

/** The list parameters every project list shares (search lists allow fewer orders). */
function listVariables(p: Params, scope: ProjectScope, orders: string[]) {
  const window = p.window();
  return {
    window,
    variables: {
      scope,
      archived: p.bool('archived') ?? null,
      search: p.string('search') ?? null,
      nameContains: null as string | null,
      orderBy: p.oneOf('order_by', orders, 'created_at').toUpperCase() as ProjectOrder,
      sort: p.oneOf('sort', ['asc', 'desc'], 'desc').toUpperCase() as 'ASC' | 'DESC',
      ciEnabledFirst: p.bool('ci_enabled_first') ?? null,
      page: window.page,
      perPage: window.perPage,
    },
  };
}

const listRoute = (path: string, scope: ProjectScope, summary: string): Route => ({
  method: 'get',
  path,
  versions: projectListScope,
  summary,
  params: listParams(LIST_ORDERS),
  response: (g) => mapItems(g.select(ListProjectsDocument, 'projects.nodes'), projectSchema),
  handle: async (p, gateway, state) => {
    const { window, variables } = listVariables(p, scope, LIST_ORDERS);
    const { json, total } = await renderedProjectPage(gateway, state?.rendered, variables);
    return { json, page: { window, total } };
  },
});

/** The settings POST and PUT accept. */
const SETTINGS_PARAMS = {
  description: str(),
  default_branch: str(),
  issues_enabled: bool(),
  merge_requests_enabled: bool(),
  wiki_enabled: bool(),
  snippets_enabled: bool(),
  public: bool('true is visibility level 20.'),
  visibility_level: int('0 (private), 10 (internal) or 20 (public).'),
};

/** v3's visibility levels as the public enum. */
const VISIBILITIES = new Map<number | undefined, Visibility>([
  [0, 'PRIVATE'],
  [10, 'INTERNAL'],
  [20, 'PUBLIC'],
]);

/**
 * v3's visibility_level, or 20 for public=true (visibility_level wins; public=false means nothing,
 * as in GitLab 7.14), as the enum; a number the enum cannot hold goes as v3VisibilityLevel, which
 * projects answers with GitLab's validation error.
 */
function visibilityOf(isPublic: boolean | undefined, level: number | undefined) {
  const asked = level ?? (isPublic === true ? 20 : undefined);
  if (asked === undefined) return {};
  const visibility = VISIBILITIES.get(asked);
  return visibility ? { visibility } : { v3VisibilityLevel: asked };
}

/** The settings POST and PUT accept, as GraphQL input. */
const settings = (p: Params) => ({
  ...defined({
    description: p.string('description'),
    defaultBranch: p.string('default_branch'),
    issuesEnabled: p.bool('issues_enabled'),
    mergeRequestsEnabled: p.bool('merge_requests_enabled'),
    wikiEnabled: p.bool('wiki_enabled'),
    snippetsEnabled: p.bool('snippets_enabled'),
  }),
  // Read in this order, as before: a bad public is the 400 named first.
  ...visibilityOf(p.bool('public'), p.int('visibility_level')),
});

export const projectRoutes: Route[] = [
  listRoute('/projects', 'MEMBER', 'Lists the projects the caller is a member of'),
  listRoute('/projects/owned', 'OWNED', 'Lists the projects the caller owns'),
  listRoute('/projects/all', 'ALL', 'Lists every project (admins only)'),
  {
    // Finds internal and public projects of others too; private ones only for their members.
    method: 'get',
    path: '/projects/search/:query',
    versions: projectListScope,
    summary: 'Finds the projects the caller may see whose name contains the query',
    params: { ...listParams(SEARCH_ORDERS), search: str('Ignored here: the path holds the query.') },
    response: (g) => mapItems(g.select(ListProjectsDocument, 'projects.nodes'), projectSchema),
    handle: async (p, gateway, state) => {
      const { window, variables } = listVariables(p, 'VISIBLE', SEARCH_ORDERS);
      // GitLab 7.14 matched the name only here (the list routes' `search` looks further).
      const { json, total } = await renderedProjectPage(gateway, state?.rendered, {
        ...variables,
        search: null,
        nameContains: p.string('query') ?? '',
      });
      return { json, page: { window, total } };
    },
  },
  {
    method: 'get',
    path: '/projects/:id',
    versions: projectWithParentScope,
    summary: "A project, with the caller's permissions",
    response: (g) => projectSchema(g.select(GetProjectDocument, 'project')),
    handle: async (p, gateway) => {
      const { project } = await gateway(GetProjectDocument, projectKey(p));
      if (!project) throw PROJECT_NOT_FOUND();
      return { body: presentProject(project) };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/events',
    versions: projectScope,
    summary: "The project's events, newest first",
    params: PAGE,
    response: (g) => g.select(ProjectEventsDocument, 'project.events.nodes'),
    handle: async (p, gateway) => {
      const window = p.window();
      const { project } = await gateway(ProjectEventsDocument, {
        ...projectKey(p),
        page: window.page,
        perPage: window.perPage,
      });
      if (!project) throw PROJECT_NOT_FOUND();
      return { body: project.events.nodes, page: { window, total: project.events.total } };
    },
  },
  {
    method: 'post',
    path: '/projects',
    summary: 'Creates a project',
    params: {
      name: required(str()),
      path: str('Derived from the name by default.'),
      namespace_id: int("The caller's namespace by default."),
      import_url: str(),
      ...SETTINGS_PARAMS,
    },
    response: (g) => projectSchema(g.select(CreateProjectDocument, 'createProject.project')),
    handle: async (p, gateway) => {
      p.require('name');
      const input = {
        ...settings(p),
        ...defined({
          name: p.string('name'),
          path: p.string('path'),
          namespaceId: p.int('namespace_id'),
          importUrl: p.string('import_url'),
        }),
      };
      const { createProject } = await gateway(CreateProjectDocument, { input });
      return { body: presentProject(payloadEntity(createProject.project)) };
    },
  },
  {
    // GitLab answered a missing name here with a validation object, not "not given".
    method: 'post',
    path: '/projects/user/:user_id',
    summary: "Creates a project in a user's namespace (admins only)",
    params: { name: str(), import_url: str(), ...SETTINGS_PARAMS },
    response: (g) => projectSchema(g.select(CreateProjectForUserDocument, 'createProjectForUser.project')),
    handle: async (p, gateway) => {
      const input = { ...settings(p), ...defined({ name: p.string('name'), importUrl: p.string('import_url') }) };
      const { createProjectForUser } = await gateway(CreateProjectForUserDocument, {
        input: { userId: p.id('user_id'), ...input },
      });
      return { body: presentProject(payloadEntity(createProjectForUser.project)) };
    },
  },
  {
    method: 'put',
    path: '/projects/:id',
    summary: 'Changes a project',
    params: { name: str(), path: str(), ...SETTINGS_PARAMS },
    response: (g) => projectSchema(g.select(UpdateProjectDocument, 'updateProject.project')),
    handle: async (p, gateway) => {
      const input = { ...settings(p), ...defined({ name: p.string('name'), path: p.string('path') }) };
      const { updateProject } = await gateway(UpdateProjectDocument, {
        input: { projectId: await projectIdOf(p, gateway), ...input },
      });
      return { body: presentProject(payloadEntity(updateProject.project)) };
    },
  },
  {
    method: 'post',
    path: '/projects/fork/:id',
    summary: "Forks a project into the caller's namespace",
    response: (g) => projectSchema(g.select(ForkProjectDocument, 'forkProject.project')),
    handle: async (p, gateway) => {
      const { forkProject } = await gateway(ForkProjectDocument, {
        input: { projectId: await projectIdOf(p, gateway) },
      });
      return { body: presentProject(payloadEntity(forkProject.project)) };
    },
  },
  {
    // GitLab answered `true`. DELETE is idempotent: a project that does not exist is a 200 `true`
    // too, as the spec says explicitly (GitLab 7.14 answered 404 there; the spec wins), and so is
    // a private project the caller may not see, which must look exactly like a missing one.
    // Either way nothing is deleted (the projects service decides, by id; a path names nothing
    // the caller cannot see).
    method: 'delete',
    path: '/projects/:id',
    summary: 'Deletes a project and everything in it; true also when there was none',
    response: () => ({ const: true }),
    handle: async (p, gateway) => {
      const key = projectKey(p);
      let id = key.id;
      if (id === null) {
        const { project } = await gateway(ProjectIdDocument, { fullPath: key.fullPath! });
        if (!project) return { body: true };
        id = project.id;
      }
      // A null projectId (nothing the caller could see was deleted) is the same `true`.
      await gateway(DeleteProjectDocument, { input: { projectId: id } });
      return { body: true };
    },
  },
  {
    method: 'post',
    path: '/projects/:id/fork/:forked_from_id',
    summary: 'Marks a project as a fork of another (admins only)',
    response: (g) => projectSchema(g.select(CreateForkRelationDocument, 'createForkRelation.project')),
    handle: async (p, gateway) => {
      const { createForkRelation } = await gateway(CreateForkRelationDocument, {
        input: { projectId: await adminRouteProjectId(p, gateway), forkedFromId: p.id('forked_from_id') },
      });
      return { body: presentProject(payloadEntity(createForkRelation.project)) };
    },
  },
  {
    method: 'delete',
    path: '/projects/:id/fork',
    summary: 'Removes the forked-from relation (admins only)',
    response: (g) => projectSchema(g.select(DeleteForkRelationDocument, 'deleteForkRelation.project')),
    handle: async (p, gateway) => {
      const { deleteForkRelation } = await gateway(DeleteForkRelationDocument, {
        input: { projectId: await adminRouteProjectId(p, gateway) },
      });
      return { body: presentProject(payloadEntity(deleteForkRelation.project)) };
    },
  },
];
