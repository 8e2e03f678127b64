-- Projects can live in groups: the copy of identity's namespace says which kind it is.
alter table namespaces add column kind text not null default 'user' check (kind in ('user', 'group'));
-- GET /groups/:id lists the group's projects.
create index projects_namespace_idx on projects (namespace_id, id);
