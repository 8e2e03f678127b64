-- Branches only Masters may push to, and nobody may force-push or delete.
create table protected_branches (
  project_id integer not null,
  name text not null,
  created_at timestamptz not null default now(),
  primary key (project_id, name)
);
