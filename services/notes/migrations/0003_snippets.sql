create table snippets (
  id serial primary key,
  project_id integer not null,
  title text not null,
  file_name text not null,
  content text not null,
  visibility_level smallint not null default 0 check (visibility_level in (0, 10, 20)),
  author_id integer not null,
  expires_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index snippets_project_idx on snippets (project_id, id desc);
