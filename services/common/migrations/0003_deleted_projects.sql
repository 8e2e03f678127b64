-- Projects this service has learnt were deleted (see project-tombstones.ts): a write that was
-- authorized before the deletion and commits after its cleanup finds the tombstone and is refused,
-- so no row of a deleted project is left behind. Project ids are never reused.
create table deleted_projects (
  project_id integer primary key,
  deleted_at timestamptz not null default now()
);
