-- A merge in progress: set when an accept claims the merge request, cleared when the merge is
-- recorded or fails. The merge itself (a git worker call, possibly fetching from another shard)
-- runs outside any transaction, so no connection or row lock is held while it runs; a claim older
-- than the merge's deadline is stale (its process died) and may be taken over.
alter table merge_requests add column if not exists merge_locked_at timestamptz;
