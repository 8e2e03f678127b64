-- System hooks live beside project hooks, as GitLab's SystemHook and ProjectHook shared web_hooks
-- (with a type column): one table, one delivery log, one worker path. A system hook belongs to no
-- project and receives GitLab's system events (project_create, user_create, ...), whatever its
-- event flags say.
alter table hooks add column kind text not null default 'project' check (kind in ('project', 'system'));
alter table hooks alter column project_id drop not null;
alter table hooks add constraint hooks_kind_project check ((kind = 'project') = (project_id is not null));
create index hooks_system_idx on hooks (id) where kind = 'system';

-- The project whose hook a delivery went to: null for a system hook's deliveries.
alter table deliveries alter column project_id drop not null;
