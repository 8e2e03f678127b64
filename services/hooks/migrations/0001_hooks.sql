-- Project hooks and their delivery log. Deliveries are the source of truth for what was sent:
-- one row per (hook, event), whatever number of times the event or its job arrives.
create table hooks (
  id serial primary key,
  project_id integer not null,
  url text not null,
  push_events boolean not null default true,
  tag_push_events boolean not null default false,
  issues_events boolean not null default false,
  merge_requests_events boolean not null default false,
  note_events boolean not null default false,
  -- Sent as X-Gitlab-Token when set (never shown again).
  token text,
  -- Standard Webhooks signing secret (whsec_…), one per hook.
  signing_secret text not null,
  -- Failed attempts in a row, and the pause they earned (see HOOK_PAUSE_*).
  consecutive_failures integer not null default 0,
  pauses integer not null default 0,
  paused_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index hooks_project_idx on hooks (project_id, id);

create table deliveries (
  id bigserial primary key,
  hook_id integer not null references hooks (id) on delete cascade,
  project_id integer not null,
  -- <service>:<outbox id> of the event it carries.
  event_key text not null,
  -- X-Gitlab-Event: Push Hook, Tag Push Hook, Issue Hook, Merge Request Hook, Note Hook.
  event_name text not null,
  -- Standard Webhooks webhook-id: the same on every attempt and re-send, so receivers can de-duplicate.
  webhook_id text not null,
  -- The JSON body exactly as sent (text: jsonb would reorder GitLab's keys).
  payload text not null,
  state text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
  created_at timestamptz not null default now(),
  delivered_at timestamptz,
  unique (hook_id, event_key)
);
create index deliveries_hook_idx on deliveries (hook_id, id desc);
create index deliveries_created_idx on deliveries (created_at);

create table delivery_attempts (
  id bigserial primary key,
  delivery_id bigint not null references deliveries (id) on delete cascade,
  started_at timestamptz not null,
  duration_ms integer not null,
  -- null when no answer came (refused, timed out, blocked address).
  status_code integer,
  error text,
  request_headers jsonb not null,
  response_headers jsonb,
  -- The first bytes of the answer (see MAX_LOGGED_BODY).
  response_body text,
  -- The hook worker that sent it (hostname-pid).
  worker text not null
);
create index delivery_attempts_delivery_idx on delivery_attempts (delivery_id, id);
