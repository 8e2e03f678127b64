create table issues (
  id serial primary key,
  project_id integer not null,
  iid integer not null,
  title text not null,
  description text,
  state text not null default 'opened' check (state in ('opened', 'closed', 'reopened')),
  author_id integer not null,
  assignee_id integer,
  labels text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (project_id, iid)
);
create index issues_project_idx on issues (project_id, id desc);
create index issues_labels_idx on issues using gin (labels);

-- The last issue iid per project; taking the next one locks the row.
create table issue_iids (
  project_id integer primary key,
  last_iid integer not null
);
