create table projects (
  id serial primary key,
  -- The namespace (identity's) with the parts of it every response and lookup needs, kept
  -- current from identity's user.updated events.
  namespace_id integer not null,
  namespace_path text not null,
  namespace_name text not null,
  -- The namespace owner, Owner of the project.
  owner_id integer,
  creator_id integer not null,
  name text not null,
  path text not null,
  description text,
  default_branch text not null default 'master',
  visibility_level smallint not null default 0 check (visibility_level in (0, 10, 20)),
  issues_enabled boolean not null default true,
  merge_requests_enabled boolean not null default true,
  wiki_enabled boolean not null default true,
  snippets_enabled boolean not null default false,
  archived boolean not null default false,
  import_url text,
  tag_list text[] not null default '{}',
  forked_from_project_id integer references projects (id) on delete set null,
  -- Bumped by every change; membership keeps the newest facts it was told.
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_activity_at timestamptz not null default now()
);
create unique index projects_namespace_path_key on projects (namespace_id, lower(path));
create unique index projects_namespace_name_key on projects (namespace_id, lower(name));
-- GET /projects/NAMESPACE%2FNAME
create index projects_full_path_idx on projects (lower(namespace_path), lower(path));
create index projects_owner_idx on projects (owner_id);
create index projects_forked_from_idx on projects (forked_from_project_id);
create index projects_visibility_idx on projects (visibility_level, id);

-- The project events feed, built from every service's domain events.
create table project_events (
  id bigserial primary key,
  project_id integer not null references projects (id) on delete cascade,
  action_name text not null,
  title text,
  target_id integer,
  target_type text,
  target_title text,
  author_id integer not null,
  author_username text not null,
  data jsonb,
  created_at timestamptz not null default now()
);
create index project_events_project_idx on project_events (project_id, id desc);
