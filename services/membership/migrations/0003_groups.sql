-- Groups as membership knows them (identity owns the namespace; this copy comes from identity's
-- direct call at creation and its group.* events): enough to name a group in events and to
-- refuse members for a group that is gone. Deleted groups stay as tombstones so a late event
-- cannot bring them back.
create table groups (
  group_id integer primary key,
  name text not null,
  path text not null,
  deleted boolean not null default false,
  updated_at timestamptz not null default now()
);

-- Group members: GitLab's levels, Owner (50) included (a group's Owner administers it and has
-- Owner rights on its projects).
create table group_members (
  group_id integer not null references groups (group_id) on delete cascade,
  user_id integer not null,
  access_level smallint not null check (access_level in (10, 20, 30, 40, 50)),
  notification_level smallint not null default 3,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (group_id, user_id)
);
create index group_members_user_idx on group_members (user_id);

-- The namespace of each project, so a group member's level reaches the group's projects.
alter table project_facts add column namespace_id integer;
create index project_facts_namespace_idx on project_facts (namespace_id) where not deleted;
