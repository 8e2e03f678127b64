-- The git worker shard (GIT_WORKER_SHARDS' name) holding the project's repository, chosen at create
-- and never changed (no move is offered). Projects made before shards live on the one named default.
alter table projects add column repository_storage text not null default 'default';
-- Placing a new project counts the projects of each shard.
create index projects_repository_storage_idx on projects (repository_storage);
