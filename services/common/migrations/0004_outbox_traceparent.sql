-- The W3C traceparent of the request that recorded the event (null when untraced): the relay
-- carries it to the stream so consumers, and the hook deliveries they start, join its trace.
-- `if not exists`: databases of this session applied it under its first name, 0003.
alter table outbox add column if not exists traceparent text;
