create extension if not exists pg_trgm;

create table users (
  id serial primary key,
  username text not null,
  email text not null,
  name text not null,
  state text not null default 'active' check (state in ('active', 'blocked')),
  is_admin boolean not null default false,
  -- scrypt$N$r$p$salt$hash
  password_hash text not null,
  -- v3 hands the token back on GET /user and POST /session, so it is kept retrievable.
  private_token text not null,
  bio text,
  skype text not null default '',
  linkedin text not null default '',
  twitter text not null default '',
  website_url text not null default '',
  projects_limit integer not null default 100000,
  can_create_group boolean not null default true,
  theme_id integer not null default 1,
  color_scheme_id integer not null default 1,
  extern_uid text,
  provider text,
  current_sign_in_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_username_key on users (lower(username));
create unique index users_email_key on users (lower(email));
create unique index users_private_token_key on users (private_token);
-- GET /users?search= matches substrings of username, name and email.
create index users_search_idx on users using gin ((username || ' ' || name || ' ' || email) gin_trgm_ops);

create table namespaces (
  id serial primary key,
  name text not null,
  path text not null,
  kind text not null default 'user' check (kind in ('user')),
  description text not null default '',
  owner_id integer references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index namespaces_path_key on namespaces (lower(path));
create unique index namespaces_owner_user_key on namespaces (owner_id) where kind = 'user';

create table oauth_access_tokens (
  id serial primary key,
  user_id integer not null references users (id) on delete cascade,
  -- sha256 of the tokens: they are shown once, at issue.
  token_digest text not null,
  refresh_token_digest text not null,
  scopes text not null default 'api',
  expires_at timestamptz not null,
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);
create unique index oauth_access_tokens_token_key on oauth_access_tokens (token_digest);
create unique index oauth_access_tokens_refresh_key on oauth_access_tokens (refresh_token_digest);
create index oauth_access_tokens_user_idx on oauth_access_tokens (user_id);
