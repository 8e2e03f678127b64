-- GET /projects asks membership for the projects a user is in other than their own (projects finds
-- owned ones by owner_id). A user who created 100,000 projects has 100,000 Master rows, all owned:
-- filtering them through project_facts made page 1 cost in proportion to everything they own.
-- Each row now says whether its user owns the project, and the list reads a partial index of the
-- rows that don't, so the answer costs what it returns.
alter table members add column of_owner boolean not null default false;

update members m set of_owner = true
from project_facts f
where f.project_id = m.project_id and f.owner_id = m.user_id;

create index members_user_not_owner_idx on members (user_id, project_id) where not of_owner;

-- Kept by the database, so no writer (facts, member changes, bulk copies) can forget it.
-- The functions keep the schema they were made in (`set search_path from current`): a session of
-- another search path (an operator's, a bulk copy's) writing these tables must find project_facts.
create function members_set_of_owner() returns trigger language plpgsql set search_path from current as $$
begin
  new.of_owner := exists (select 1 from project_facts f where f.project_id = new.project_id and f.owner_id = new.user_id);
  return new;
end $$;

create trigger members_of_owner before insert or update of user_id, project_id on members
  for each row execute function members_set_of_owner();

create function project_facts_owner_changed() returns trigger language plpgsql set search_path from current as $$
begin
  update members set of_owner = (user_id = new.owner_id) is true
  where project_id = new.project_id and of_owner is distinct from ((user_id = new.owner_id) is true);
  return null;
end $$;

create trigger project_facts_owner after update of owner_id on project_facts
  for each row when (old.owner_id is distinct from new.owner_id)
  execute function project_facts_owner_changed();
