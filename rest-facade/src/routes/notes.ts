import { projectScope } from '../conditional/version-scopes';
import {
  CreateNoteDocument,
  NoteableNoteDocument,
  NoteableNotesDocument,
  SnippetNoteDocument,
  UpdateNoteDocument,
  type NoteableKind,
  type V3NoteFragment,
} from '../generated/operations';
import type { JsonSchema } from '../openapi/json-schema';
import type { GraphQLShapes } from '../openapi/graphql-shapes';
import { mapItems, objectOf, propertyOf, withProperties } from '../openapi/json-schema';
import { PAGE, required, str } from '../param-docs';
import type { Params } from '../params';
import type { Route, RouteResult } from '../route';
import { payloadEntity, type GatewayCall } from '../gateway-client';
import { RECORD_NOT_FOUND } from '../v3-errors';
import { PROJECT_NOT_FOUND, projectIdOf, projectKey } from './project-key';

/** What differs between the things notes are on: where they live, and the v3 quirks of each. */
interface Noteable {
  kind: NoteableKind;
  /** The noted thing's path below the API root; its id parameter is `idParam`. */
  paths: string[];
  idParam: string;
  /** The thing's name, for the summaries. */
  noun: string;
  /** A single note answered in another shape than the Note entity, and that shape. */
  showOne?: {
    handle: (p: Params, gateway: GatewayCall) => Promise<RouteResult>;
    response: (shapes: GraphQLShapes) => JsonSchema;
  };
  /** The merge request comments view over the same notes: `note` and `author`, posted as `note`. */
  comments?: boolean;
}

const NOTEABLES: Noteable[] = [
  { kind: 'ISSUE', paths: ['/projects/:id/issues/:issue_id'], idParam: 'issue_id', noun: 'issue' },
  {
    kind: 'SNIPPET',
    paths: ['/projects/:id/snippets/:snippet_id'],
    idParam: 'snippet_id',
    noun: 'snippet',
    // The spec: the single snippet note response carries the snippet's fields (as GitLab v3 did).
    showOne: {
      handle: async (p, gateway) => {
        const { project } = await gateway(SnippetNoteDocument, {
          ...projectKey(p),
          snippetId: p.id('snippet_id'),
          noteId: p.id('note_id'),
        });
        if (!project) throw PROJECT_NOT_FOUND();
        if (!project.snippet?.note) throw RECORD_NOT_FOUND();
        const { note: _note, ...snippet } = project.snippet;
        return { body: snippet };
      },
      response: (g) => withProperties(g.select(SnippetNoteDocument, 'project.snippet'), { note: undefined }),
    },
  },
  {
    kind: 'MERGE_REQUEST',
    // The spec's note paths use the plural; GitLab v3 also answered the singular, which clients still call.
    paths: ['/projects/:id/merge_requests/:merge_request_id', '/projects/:id/merge_request/:merge_request_id'],
    idParam: 'merge_request_id',
    noun: 'merge request',
    comments: true,
  },
];

/** A merge request comment: the note's text, and its author. */
const asComment = (n: V3NoteFragment) => ({ note: n.body, author: n.author });
/** asComment's shape, from the note's. */
const commentSchema = (note: JsonSchema) =>
  objectOf({ note: propertyOf(note, 'body'), author: propertyOf(note, 'author') });

function routesOf({ kind, paths, idParam, noun, showOne, comments }: Noteable): Route[] {
  const list =
    (present: (n: V3NoteFragment) => unknown): Route['handle'] =>
    async (p, gateway) => {
      const window = p.window();
      const { project } = await gateway(NoteableNotesDocument, {
        ...projectKey(p),
        kind,
        noteableId: p.id(idParam),
        page: window.page,
        perPage: window.perPage,
      });
      if (!project) throw PROJECT_NOT_FOUND();
      if (!project.noteable) throw RECORD_NOT_FOUND();
      return { body: project.noteable.notes.nodes.map(present), page: { window, total: project.noteable.notes.total } };
    };

  const create =
    (field: 'body' | 'note', present: (n: V3NoteFragment) => unknown): Route['handle'] =>
    async (p, gateway) => {
      p.require(field);
      const { createNote } = await gateway(CreateNoteDocument, {
        input: {
          projectId: await projectIdOf(p, gateway),
          noteable: kind,
          noteableId: p.id(idParam),
          body: p.string(field)!,
        },
      });
      return { body: present(payloadEntity(createNote.note)) };
    };

  const showNote: Route['handle'] = async (p, gateway) => {
    const { project } = await gateway(NoteableNoteDocument, {
      ...projectKey(p),
      kind,
      noteableId: p.id(idParam),
      noteId: p.id('note_id'),
    });
    if (!project) throw PROJECT_NOT_FOUND();
    if (!project.noteable?.note) throw RECORD_NOT_FOUND();
    return { body: project.noteable.note };
  };

  const updateNote: Route['handle'] = async (p, gateway) => {
    p.require('body');
    const { updateNote } = await gateway(UpdateNoteDocument, {
      input: {
        projectId: await projectIdOf(p, gateway),
        noteable: kind,
        noteableId: p.id(idParam),
        noteId: p.id('note_id'),
        body: p.string('body')!,
      },
    });
    return { body: payloadEntity(updateNote.note) };
  };

  const same = (n: V3NoteFragment) => n;
  const listed = (g: GraphQLShapes) => g.select(NoteableNotesDocument, 'project.noteable.notes.nodes');
  const created = (g: GraphQLShapes) => g.select(CreateNoteDocument, 'createNote.note');
  return paths.flatMap((path): Route[] => [
    {
      method: 'get',
      path: `${path}/notes`,
      versions: projectScope,
      summary: `Lists the notes on a ${noun}`,
      params: PAGE,
      response: listed,
      handle: list(same),
    },
    {
      method: 'post',
      path: `${path}/notes`,
      summary: `Adds a note to a ${noun}`,
      params: { body: required(str()) },
      response: created,
      handle: create('body', same),
    },
    {
      method: 'get',
      path: `${path}/notes/:note_id`,
      versions: projectScope,
      summary: showOne ? `A note on a ${noun}: the ${noun}'s fields, as GitLab answered` : `A note on a ${noun}`,
      response: showOne?.response ?? ((g) => g.select(NoteableNoteDocument, 'project.noteable.note')),
      handle: showOne?.handle ?? showNote,
    },
    {
      method: 'put',
      path: `${path}/notes/:note_id`,
      summary: `Changes a note on a ${noun}`,
      params: { body: required(str()) },
      response: (g) => g.select(UpdateNoteDocument, 'updateNote.note'),
      handle: updateNote,
    },
    ...(comments
      ? [
          {
            method: 'get',
            path: `${path}/comments`,
            versions: projectScope,
            summary: `Lists the comments on a ${noun}: their text and author`,
            params: PAGE,
            response: (g) => mapItems(listed(g), commentSchema),
            handle: list(asComment),
          } satisfies Route,
          {
            method: 'post',
            path: `${path}/comments`,
            summary: `Comments on a ${noun}`,
            params: { note: required(str()) },
            response: (g) => commentSchema(created(g)),
            handle: create('note', asComment),
          } satisfies Route,
        ]
      : []),
  ]);
}

/** Notes on issues, snippets and merge requests (the spec's Notes table), and the merge request comments. */
export const noteRoutes: Route[] = NOTEABLES.flatMap(routesOf);
