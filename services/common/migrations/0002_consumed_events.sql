-- Events this service has already acted on (see handleOnce): delivery is at least once, effects
-- must happen once.
create table consumed_events (
  service text not null,
  outbox_id bigint not null,
  consumed_at timestamptz not null default now(),
  primary key (service, outbox_id)
);
