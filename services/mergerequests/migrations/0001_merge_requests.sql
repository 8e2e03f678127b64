create table merge_requests (
  id serial primary key,
  -- The target project: paths and iids belong to it.
  project_id integer not null,
  iid integer not null,
  source_project_id integer not null,
  source_branch text not null,
  target_branch text not null,
  title text not null,
  description text,
  state text not null default 'opened' check (state in ('opened', 'closed', 'merged', 'reopened')),
  author_id integer not null,
  assignee_id integer,
  merge_commit_sha text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  merged_at timestamptz,
  unique (project_id, iid)
);
create index merge_requests_project_idx on merge_requests (project_id, id desc);
create index merge_requests_source_idx on merge_requests (source_project_id);
-- One open merge request per source and target, also under concurrent creates.
create unique index merge_requests_open_pair_key on merge_requests (project_id, source_project_id, source_branch, target_branch)
  where state in ('opened', 'reopened');

-- The last iid handed out per project; taking the next one locks the row, so two creates never share one.
create table project_iids (
  project_id integer primary key,
  last_iid integer not null
);
