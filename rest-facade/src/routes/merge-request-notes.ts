import { CreateMergeRequestNoteDocument, MergeRequestNoteDocument, MergeRequestNotesDocument, UpdateMergeRequestNoteDocument } from '../generated/operations';
import type { Route } from '../route';
import { RECORD_NOT_FOUND } from '../v3-errors';
import { PROJECT_NOT_FOUND, projectIdOf, projectKey } from './project-key';

type Note = { id: number; body: string; attachment: string | null; author: Record<string, unknown>; created_at: string };

/** The spec's merge request note: id, body, attachment, author, created_at. */
const presentNote = (n: Note) => ({ id: n.id, body: n.body, attachment: n.attachment, author: n.author, created_at: n.created_at });
/** A merge request comment: the note, and in lists its author. */
const presentComment = (n: Note) => ({ note: n.body, author: n.author });

const both = (suffix: string) => [`/projects/:id/merge_requests/:merge_request_id${suffix}`, `/projects/:id/merge_request/:merge_request_id${suffix}`];

const list =
  (present: (n: Note) => unknown): Route['handle'] =>
  async (p, gateway) => {
    const window = p.window();
    const { project } = await gateway(MergeRequestNotesDocument, { ...projectKey(p), mergeRequestId: p.id('merge_request_id'), page: window.page, perPage: window.perPage });
    if (!project) throw PROJECT_NOT_FOUND();
    if (!project.mergeRequest) throw RECORD_NOT_FOUND();
    return { body: project.mergeRequest.notes.nodes.map(present), page: { window, total: project.mergeRequest.notes.total } };
  };

const create =
  (field: 'body' | 'note', present: (n: Note) => unknown): Route['handle'] =>
  async (p, gateway) => {
    p.require(field);
    const { createMergeRequestNote } = await gateway(CreateMergeRequestNoteDocument, {
      projectId: await projectIdOf(p, gateway),
      mergeRequestId: p.id('merge_request_id'),
      body: p.string(field)!,
    });
    return { body: present(createMergeRequestNote) };
  };

/**
 * Merge request notes (the spec's Notes table, plural path; the singular is served too) and the
 * merge request comments, which are the same notes: a comment posted on one shows on the other.
 */
export const mergeRequestNoteRoutes: Route[] = [
  ...both('/notes').map((path): Route => ({ method: 'get', path, handle: list(presentNote) })),
  ...both('/notes').map((path): Route => ({ method: 'post', path, handle: create('body', presentNote) })),
  ...both('/notes/:note_id').map(
    (path): Route => ({
      method: 'get',
      path,
      handle: async (p, gateway) => {
        const { project } = await gateway(MergeRequestNoteDocument, { ...projectKey(p), mergeRequestId: p.id('merge_request_id'), noteId: p.id('note_id') });
        if (!project) throw PROJECT_NOT_FOUND();
        if (!project.mergeRequest?.note) throw RECORD_NOT_FOUND();
        return { body: presentNote(project.mergeRequest.note) };
      },
    }),
  ),
  ...both('/notes/:note_id').map(
    (path): Route => ({
      method: 'put',
      path,
      handle: async (p, gateway) => {
        p.require('body');
        const { updateMergeRequestNote } = await gateway(UpdateMergeRequestNoteDocument, {
          projectId: await projectIdOf(p, gateway),
          mergeRequestId: p.id('merge_request_id'),
          noteId: p.id('note_id'),
          body: p.string('body')!,
        });
        return { body: presentNote(updateMergeRequestNote) };
      },
    }),
  ),
  ...both('/comments').map((path): Route => ({ method: 'get', path, handle: list(presentComment) })),
  ...both('/comments').map((path): Route => ({ method: 'post', path, handle: create('note', presentComment) })),
];
