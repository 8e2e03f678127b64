-- Nothing read a delivery's project: a project hook's deliveries are reached through the hook
-- (hook_id), and deleting a project's hooks takes their deliveries with them (on delete cascade).
alter table deliveries drop column project_id;
