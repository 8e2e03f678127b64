-- A page of a project list costs the same at 100,000 projects as at 1,000.
--
-- 1. The default order (newest first) walks an index and stops after the page, instead of
--    sorting every project the viewer may see. The owner index gains the same order for
--    "owned" lists; it still serves every lookup by owner_id alone.
create index projects_created_at_idx on projects (created_at, id);
create index projects_owner_created_at_idx on projects (owner_id, created_at, id);
drop index projects_owner_idx;

-- 2. The total behind X-Total and the Link rel="last" comes from counters kept with the rows,
--    not from counting every visible project on every request. One row per owner, visibility
--    and archived flag; owner 0 holds the projects without an owner (group projects) and -1 the
--    sum over all owners.
create table project_counts (
  owner_id integer not null,
  visibility_level smallint not null,
  archived boolean not null,
  count integer not null,
  primary key (owner_id, visibility_level, archived)
);

-- Applies +1/-1 per changed row. All deltas go in one statement, in key order: concurrent
-- writers lock counter rows in the same order, so they wait for each other but never deadlock.
create function project_counts_track() returns trigger language plpgsql as $$
begin
  insert into project_counts (owner_id, visibility_level, archived, count)
  select o, v, a, sum(d)::int
  from (
    select coalesce(old.owner_id, 0), old.visibility_level, old.archived, -1 where tg_op <> 'INSERT'
    union all select -1, old.visibility_level, old.archived, -1 where tg_op <> 'INSERT'
    union all select coalesce(new.owner_id, 0), new.visibility_level, new.archived, 1 where tg_op <> 'DELETE'
    union all select -1, new.visibility_level, new.archived, 1 where tg_op <> 'DELETE'
  ) as delta (o, v, a, d)
  group by o, v, a
  order by o, v, a
  on conflict (owner_id, visibility_level, archived) do update set count = project_counts.count + excluded.count;
  return null;
end $$;

create trigger project_counts_insert_delete after insert or delete on projects
  for each row execute function project_counts_track();
create trigger project_counts_update after update of owner_id, visibility_level, archived on projects
  for each row
  when (old.owner_id is distinct from new.owner_id or old.visibility_level <> new.visibility_level or old.archived <> new.archived)
  execute function project_counts_track();

insert into project_counts (owner_id, visibility_level, archived, count)
select coalesce(owner_id, 0), visibility_level, archived, count(*)::int from projects group by 1, 2, 3
union all
select -1, visibility_level, archived, count(*)::int from projects group by 2, 3;
