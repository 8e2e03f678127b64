-- What projects tells membership about each project (pushed directly and through project.*
-- events): the facts access decisions need. Deleted projects stay as tombstones so a late,
-- older message cannot bring them back.
create table project_facts (
  project_id integer primary key,
  owner_id integer,
  visibility_level smallint not null check (visibility_level in (0, 10, 20)),
  archived boolean not null,
  issues_enabled boolean not null,
  merge_requests_enabled boolean not null,
  snippets_enabled boolean not null,
  wiki_enabled boolean not null,
  version integer not null,
  deleted boolean not null default false,
  updated_at timestamptz not null default now()
);

create table members (
  project_id integer not null references project_facts (project_id) on delete cascade,
  user_id integer not null,
  access_level smallint not null check (access_level in (10, 20, 30, 40, 50)),
  notification_level smallint not null default 3,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (project_id, user_id)
);
-- "Which projects is this user in" (GET /projects) and removing a deleted user everywhere.
create index members_user_idx on members (user_id);
