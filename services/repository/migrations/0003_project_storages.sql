-- The git worker shard of each project's repository, as projects recorded it (project.created).
-- Every replica reads it here once per project (then remembers it); a project missing here was
-- created before shards and lives on the shard named default.
create table project_storages (
  project_id integer primary key,
  storage text not null
);
