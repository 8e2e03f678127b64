-- Domain events written in the same transaction as the change they describe; the relay moves
-- them to Redis in id order and deletes them once Redis has them.
create table outbox (
  id bigserial primary key,
  event_type text not null,
  payload jsonb not null,
  created_at timestamptz not null default now()
);
