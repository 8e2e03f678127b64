-- Groups are namespaces of kind group: no owner (their Owners are group members, kept by
-- membership), a name unique among namespaces as GitLab's Namespace validated it.
alter table namespaces drop constraint namespaces_kind_check;
alter table namespaces add constraint namespaces_kind_check check (kind in ('user', 'group'));
create unique index namespaces_group_name_key on namespaces (lower(name)) where kind = 'group';
create index namespaces_kind_idx on namespaces (kind, id);
