-- Comments on commits (GitLab's commit comments): a commit has no row of its own here, so such a
-- note names it by commit_id, with noteable_id null, and may point at a line of the commit's diff.
alter table notes drop constraint notes_noteable_type_check;
alter table notes add constraint notes_noteable_type_check check (noteable_type in ('Issue', 'Snippet', 'MergeRequest', 'Commit'));
alter table notes alter column noteable_id drop not null;
alter table notes
  add column commit_id text,
  add column path text,
  add column line integer,
  add column line_type text check (line_type in ('new', 'old'));
alter table notes add constraint notes_commit_target check (
  (noteable_type = 'Commit' and commit_id is not null and noteable_id is null)
  or (noteable_type <> 'Commit' and commit_id is null and noteable_id is not null)
);
create index notes_commit_idx on notes (project_id, commit_id, id) where commit_id is not null;
