-- GitLab's ApplicationSetting: one row of instance-wide settings, with GitLab 8.x's defaults
-- (config/initializers/1_settings.rb and ApplicationSetting.create_from_defaults).
create table application_settings (
  id integer primary key default 1 check (id = 1),
  default_projects_limit integer not null default 10,
  signup_enabled boolean not null default true,
  signin_enabled boolean not null default true,
  gravatar_enabled boolean not null default true,
  sign_in_text text,
  home_page_url text,
  after_sign_out_path text,
  -- 0 none, 1 protected but developers may push, 2 fully protected.
  default_branch_protection integer not null default 2 check (default_branch_protection in (0, 1, 2)),
  twitter_sharing_enabled boolean not null default true,
  restricted_visibility_levels integer[] not null default '{}',
  -- megabytes
  max_attachment_size integer not null default 10,
  -- minutes
  session_expire_delay integer not null default 10080,
  default_project_visibility integer not null default 0 check (default_project_visibility in (0, 10, 20)),
  default_snippet_visibility integer not null default 0 check (default_snippet_visibility in (0, 10, 20)),
  restricted_signup_domains text[] not null default '{}',
  user_oauth_applications boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
insert into application_settings (id) values (1);
