-- project_counts (0004) was kept by a row-level trigger: a statement writing n projects updated
-- the same counter rows n times, each update stepping over the versions the earlier ones left,
-- so one 98,000-row insert took minutes. The counters now change once per statement, from the
-- statement's transition tables, whatever the number of rows.
drop trigger project_counts_insert_delete on projects;
drop trigger project_counts_update on projects;
drop function project_counts_track();

-- Deltas per owner (0 for no owner, -1 for all), visibility and archived flag, applied in key
-- order so concurrent writers wait for each other but never deadlock. An update that moves no
-- project between counters changes nothing.
create function project_counts_apply() returns trigger language plpgsql as $$
declare
  changed text := case tg_op
    when 'INSERT' then 'select owner_id, visibility_level, archived, 1 from new_rows'
    when 'DELETE' then 'select owner_id, visibility_level, archived, -1 from old_rows'
    else 'select owner_id, visibility_level, archived, -1 from old_rows
          union all select owner_id, visibility_level, archived, 1 from new_rows'
  end;
begin
  execute 'insert into project_counts (owner_id, visibility_level, archived, count)
    select k.owner_id, r.visibility_level, r.archived, sum(r.delta)::int
    from (' || changed || ') as r (owner_id, visibility_level, archived, delta)
    cross join lateral (values (coalesce(r.owner_id, 0)), (-1)) as k (owner_id)
    group by 1, 2, 3
    having sum(r.delta) <> 0
    order by 1, 2, 3
    on conflict (owner_id, visibility_level, archived) do update set count = project_counts.count + excluded.count';
  return null;
end $$;

create trigger project_counts_insert after insert on projects
  referencing new table as new_rows for each statement execute function project_counts_apply();
create trigger project_counts_delete after delete on projects
  referencing old table as old_rows for each statement execute function project_counts_apply();
create trigger project_counts_update after update on projects
  referencing old table as old_rows new table as new_rows for each statement execute function project_counts_apply();
