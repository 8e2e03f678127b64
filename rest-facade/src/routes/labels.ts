import {
  CreateLabelDocument,
  DeleteLabelDocument,
  ListLabelsDocument,
  UpdateLabelDocument,
} from '../generated/operations';
import { presentLabel, presentRemovedLabel } from '../entities/label';
import type { Route } from '../route';
import { PROJECT_NOT_FOUND, projectIdOf, projectKey } from './project-key';

/**
 * GitLab 7.14's lib/api/labels.rb. Labels are addressed by name (in the body or the query), not
 * by an id in the path. The service checks the required names after the permission, as GitLab's
 * authorize! came before required_attributes!.
 */
export const labelRoutes: Route[] = [
  {
    // GitLab 7.14 listed every label at once; pages here, as every list (by name, 20 a page).
    method: 'get',
    path: '/projects/:id/labels',
    handle: async (p, gateway) => {
      const window = p.window();
      const { project } = await gateway(ListLabelsDocument, {
        ...projectKey(p),
        page: window.page,
        perPage: window.perPage,
      });
      if (!project) throw PROJECT_NOT_FOUND();
      return { body: project.labels.nodes.map(presentLabel), page: { window, total: project.labels.total } };
    },
  },
  {
    method: 'post',
    path: '/projects/:id/labels',
    handle: async (p, gateway) => {
      const { createLabel } = await gateway(CreateLabelDocument, {
        projectId: await projectIdOf(p, gateway),
        name: p.string('name') ?? null,
        color: p.string('color') ?? null,
      });
      return { body: presentLabel(createLabel) };
    },
  },
  {
    method: 'put',
    path: '/projects/:id/labels',
    handle: async (p, gateway) => {
      const { updateLabel } = await gateway(UpdateLabelDocument, {
        projectId: await projectIdOf(p, gateway),
        name: p.string('name') ?? null,
        newName: p.string('new_name') ?? null,
        color: p.string('color') ?? null,
      });
      return { body: presentLabel(updateLabel) };
    },
  },
  {
    method: 'delete',
    path: '/projects/:id/labels',
    handle: async (p, gateway) => {
      const { deleteLabel } = await gateway(DeleteLabelDocument, {
        projectId: await projectIdOf(p, gateway),
        name: p.string('name') ?? null,
      });
      return { body: presentRemovedLabel(deleteLabel) };
    },
  },
];
