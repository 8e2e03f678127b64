-- GitLab's project labels (a name and a colour, unique per project) and milestones (per-project
-- iid, active or closed). Issues keep their label names in issues.labels, as before: a label's
-- rename or removal rewrites them in the same transaction (and merge requests, in their own
-- service, follow the label events).
create table labels (
  id serial primary key,
  project_id integer not null,
  title text not null,
  color text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (project_id, title)
);

create table milestones (
  id serial primary key,
  project_id integer not null,
  iid integer not null,
  title text not null,
  description text,
  due_date date,
  state text not null default 'active' check (state in ('active', 'closed')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (project_id, iid)
);
create index milestones_project_idx on milestones (project_id, id desc);

-- The last milestone iid per project; taking the next one locks the row.
create table milestone_iids (
  project_id integer primary key,
  last_iid integer not null
);

alter table issues add column milestone_id integer references milestones (id) on delete set null;
create index issues_milestone_idx on issues (milestone_id, id desc) where milestone_id is not null;
-- GET /issues: the signed-in user's own issues.
create index issues_author_idx on issues (author_id, id desc);

-- Label names issues carried before labels had a table become the project's labels, in GitLab's
-- default colour (as add_labels_by_names would have made them). Names over 255 characters, which
-- labels refuse (and which past ~2.7 KB would not fit the unique index), stay on their issues only.
insert into labels (project_id, title, color)
select distinct issues.project_id, name, '#428BCA' from issues cross join lateral unnest(issues.labels) as name
where char_length(name) <= 255
on conflict (project_id, title) do nothing;
