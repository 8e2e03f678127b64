-- Identity's namespaces as project responses show them, with the owner's public profile, so a
-- project read needs no identity round trip (the schema @provides these fields). Written when a
-- project is created in a namespace, refreshed from identity when its user events arrive.
create table namespaces (
  id integer primary key,
  path text not null,
  name text not null,
  description text not null,
  owner_id integer,
  owner jsonb,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index namespaces_owner_idx on namespaces (owner_id);
