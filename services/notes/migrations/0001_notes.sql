-- Comments on issues, snippets and merge requests (each owned by its own service; this one keeps
-- their notes), and the system notes state changes leave.
create table notes (
  id serial primary key,
  project_id integer not null,
  noteable_type text not null check (noteable_type in ('Issue', 'Snippet', 'MergeRequest')),
  noteable_id integer not null,
  author_id integer not null,
  body text not null,
  system boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index notes_noteable_idx on notes (noteable_type, noteable_id, id);
create index notes_project_idx on notes (project_id);
