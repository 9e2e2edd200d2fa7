-- Several server processes on one PostgreSQL (issue 17): they tell each other what happened through LISTEN/NOTIFY
-- (bus/postgres-bus.ts). A message too big for NOTIFY's 8000 bytes is kept here and the notification carries its id;
-- rows are deleted after a few minutes. Unused on PGlite (one process).
create table bus_events (
  id bigserial primary key,
  payload text not null,
  created_at timestamptz not null default clock_timestamp()
);
create index bus_events_created_at on bus_events (created_at);
