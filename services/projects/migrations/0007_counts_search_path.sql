-- The counter function keeps the schema it was made in, as membership's trigger functions do: a
-- session of another search path (an operator's psql, a bulk copy) inserting into projects failed
-- with `relation "project_counts" does not exist` and wrote nothing.
alter function project_counts_apply() set search_path from current;
