-- The W3C traceparent of the request that recorded the event (null when untraced): the relay
-- carries it to the stream so consumers, and the hook deliveries they start, join its trace.
alter table outbox add column traceparent text;
