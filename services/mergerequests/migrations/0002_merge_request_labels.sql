-- GitLab's label names of a merge request (v3 takes them comma-separated on create and update and
-- shows them as an array, by title). Labels are plain names here: no colours, no per-project table.
alter table merge_requests add column labels text[] not null default '{}';
