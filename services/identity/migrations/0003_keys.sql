-- SSH keys, as GitLab kept them: one table for users' keys and deploy keys, told apart by kind
-- (GitLab's STI `type`). Deploy keys belong to no user; projects use them through
-- deploy_keys_projects. Nothing serves SSH yet: keys are stored and listed.
create table keys (
  id serial primary key,
  kind text not null check (kind in ('user', 'deploy')),
  user_id integer references users (id) on delete cascade,
  title text not null,
  -- The text as given, whitespace around it trimmed (comment included), as GitLab stored it.
  key text not null,
  -- MD5 of the key blob, colon-separated hex (ssh-keygen -l -E md5).
  fingerprint text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((kind = 'user') = (user_id is not null))
);
-- GitLab validated fingerprints unique across both kinds; the index settles concurrent adds.
-- The same text always has the same fingerprint, so it also covers GitLab's unique key text.
create unique index keys_fingerprint_key on keys (fingerprint);
-- Lists are newest first (GitLab's Sortable default scope).
create index keys_user_idx on keys (user_id, created_at desc, id desc) where kind = 'user';

-- project_id names a project of the projects service: no foreign key across services. A
-- project's deletion (its event) removes its rows here.
create table deploy_keys_projects (
  project_id integer not null,
  deploy_key_id integer not null references keys (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (project_id, deploy_key_id)
);
create index deploy_keys_projects_key_idx on deploy_keys_projects (deploy_key_id);
