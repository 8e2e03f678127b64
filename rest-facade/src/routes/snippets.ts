import {
  CreateSnippetDocument,
  DeleteSnippetDocument,
  GetSnippetDocument,
  ListSnippetsDocument,
  UpdateSnippetDocument,
} from '../generated/operations';
import { payloadEntity } from '../gateway-client';
import { anyOf, objectOf, withProperties } from '../openapi/json-schema';
import { int, PAGE, required, str } from '../param-docs';
import { defined } from '../params';
import type { Route } from '../route';
import { RECORD_NOT_FOUND } from '../v3-errors';
import { PROJECT_NOT_FOUND, projectIdOf, projectKey } from './project-key';

const withoutContent = <T extends { content?: unknown }>({ content: _content, ...snippet }: T) => snippet;

export const snippetRoutes: Route[] = [
  {
    method: 'get',
    path: '/projects/:id/snippets',
    summary: "Lists the project's snippets",
    params: PAGE,
    response: (g) => g.select(ListSnippetsDocument, 'project.snippets.nodes'),
    handle: async (p, gateway) => {
      const window = p.window();
      const { project } = await gateway(ListSnippetsDocument, {
        ...projectKey(p),
        page: window.page,
        perPage: window.perPage,
      });
      if (!project) throw PROJECT_NOT_FOUND();
      return { body: project.snippets.nodes, page: { window, total: project.snippets.total } };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/snippets/:snippet_id',
    summary: 'A snippet (its code at /raw)',
    response: (g) => withProperties(g.select(GetSnippetDocument, 'project.snippet'), { content: undefined }),
    handle: async (p, gateway) => {
      const { project } = await gateway(GetSnippetDocument, { ...projectKey(p), snippetId: p.id('snippet_id') });
      if (!project) throw PROJECT_NOT_FOUND();
      if (!project.snippet) throw RECORD_NOT_FOUND();
      return { body: withoutContent(project.snippet) };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/snippets/:snippet_id/raw',
    summary: "A snippet's code",
    contentTypes: ['text/plain; charset=utf-8'],
    response: (g) => g.select(GetSnippetDocument, 'project.snippet.content'),
    handle: async (p, gateway) => {
      const { project } = await gateway(GetSnippetDocument, { ...projectKey(p), snippetId: p.id('snippet_id') });
      if (!project) throw PROJECT_NOT_FOUND();
      if (!project.snippet) throw RECORD_NOT_FOUND();
      return { body: project.snippet.content };
    },
  },
  {
    method: 'post',
    path: '/projects/:id/snippets',
    summary: 'Creates a snippet',
    params: {
      title: required(str()),
      file_name: required(str()),
      code: required(str()),
      visibility_level: required(int('0 (private), 10 (internal) or 20 (public).')),
    },
    response: (g) => g.select(CreateSnippetDocument, 'createSnippet.snippet'),
    handle: async (p, gateway) => {
      // GitLab 7.14 required all four (lib/api/project_snippets.rb `required_attributes!`).
      p.require('title', 'file_name', 'code', 'visibility_level');
      const { createSnippet } = await gateway(CreateSnippetDocument, {
        input: {
          projectId: await projectIdOf(p, gateway),
          title: p.string('title')!,
          fileName: p.string('file_name')!,
          code: p.string('code')!,
          // v3's number as sent: one outside 0, 10 and 20 gets v3's own 400, which the enum cannot carry.
          v3VisibilityLevel: p.int('visibility_level')!,
        },
      });
      return { body: payloadEntity(createSnippet.snippet) };
    },
  },
  {
    method: 'put',
    path: '/projects/:id/snippets/:snippet_id',
    summary: 'Changes a snippet',
    params: { title: str(), file_name: str(), code: str(), visibility_level: int() },
    response: (g) => g.select(UpdateSnippetDocument, 'updateSnippet.snippet'),
    handle: async (p, gateway) => {
      const { updateSnippet } = await gateway(UpdateSnippetDocument, {
        input: defined({
          projectId: await projectIdOf(p, gateway),
          snippetId: p.id('snippet_id'),
          title: p.string('title'),
          fileName: p.string('file_name'),
          code: p.string('code'),
          v3VisibilityLevel: p.int('visibility_level'),
        }),
      });
      return { body: payloadEntity(updateSnippet.snippet) };
    },
  },
  {
    // Idempotent (the spec's DELETE rule): a snippet that is already gone is a 200 too.
    method: 'delete',
    path: '/projects/:id/snippets/:snippet_id',
    summary: 'Deletes a snippet: the deleted snippet, or {} when there was none',
    response: (g) => anyOf(g.select(DeleteSnippetDocument, 'deleteSnippet.snippet'), objectOf({})),
    handle: async (p, gateway) => {
      const { deleteSnippet } = await gateway(DeleteSnippetDocument, {
        input: { projectId: await projectIdOf(p, gateway), snippetId: p.id('snippet_id') },
      });
      // A null snippet without errors: there was none to delete.
      return { body: deleteSnippet.snippet ?? {} };
    },
  },
];
