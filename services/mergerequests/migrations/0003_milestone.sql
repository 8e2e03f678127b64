-- The milestone of a merge request: one of its (target) project's milestones, which the notes
-- service owns; checked through its contract when given, never joined.
alter table merge_requests add column milestone_id integer;
