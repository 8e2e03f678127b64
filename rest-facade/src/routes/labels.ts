import {
  CreateLabelDocument,
  DeleteLabelDocument,
  ListLabelsDocument,
  UpdateLabelDocument,
} from '../generated/operations';
import { labelSchema, presentLabel, presentRemovedLabel, removedLabelSchema } from '../entities/label';
import { payloadEntity } from '../gateway-client';
import { mapItems } from '../openapi/json-schema';
import { PAGE, str } from '../param-docs';
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
    summary: "Lists the project's labels, by name",
    params: PAGE,
    response: (g) => mapItems(g.select(ListLabelsDocument, 'project.labels.nodes'), labelSchema),
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
    summary: 'Creates a label',
    params: { name: str('Required.'), color: str('Required: #RGB or #RRGGBB.') },
    response: (g) => labelSchema(g.select(CreateLabelDocument, 'createLabel.label')),
    handle: async (p, gateway) => {
      const { createLabel } = await gateway(CreateLabelDocument, {
        input: {
          projectId: await projectIdOf(p, gateway),
          name: p.string('name') ?? null,
          color: p.string('color') ?? null,
        },
      });
      return { body: presentLabel(payloadEntity(createLabel.label)) };
    },
  },
  {
    method: 'put',
    path: '/projects/:id/labels',
    summary: 'Renames or recolors a label',
    params: { name: str('Required: the label.'), new_name: str(), color: str() },
    response: (g) => labelSchema(g.select(UpdateLabelDocument, 'updateLabel.label')),
    handle: async (p, gateway) => {
      const { updateLabel } = await gateway(UpdateLabelDocument, {
        input: {
          projectId: await projectIdOf(p, gateway),
          name: p.string('name') ?? null,
          newName: p.string('new_name') ?? null,
          color: p.string('color') ?? null,
        },
      });
      return { body: presentLabel(payloadEntity(updateLabel.label)) };
    },
  },
  {
    method: 'delete',
    path: '/projects/:id/labels',
    summary: 'Deletes a label: the deleted record, as GitLab answered it',
    params: { name: str('Required: the label.') },
    response: (g) => removedLabelSchema(g.select(DeleteLabelDocument, 'deleteLabel.label')),
    handle: async (p, gateway) => {
      const { deleteLabel } = await gateway(DeleteLabelDocument, {
        input: { projectId: await projectIdOf(p, gateway), name: p.string('name') ?? null },
      });
      return { body: presentRemovedLabel(payloadEntity(deleteLabel.label)) };
    },
  },
];
