-- Issue 15 §6: the audit trail. Rows are only ever added: a trigger refuses every update and delete, and truncate,
-- on PGlite and PostgreSQL alike (a deployment can also give the application's role insert and select only).
create table audit_events (
  id bigserial primary key,
  organisation_id text,
  at text not null,
  actor_kind text not null,
  actor_id text,
  actor_name text,
  address text,
  action text not null,
  outcome text not null,
  patient_id text,
  record_type text,
  record_id text
);
create index audit_events_org_at on audit_events (organisation_id, id desc);
create index audit_events_patient on audit_events (organisation_id, patient_id);

-- (one line: migrate.ts splits statements at semicolons that end a line)
create function audit_events_append_only() returns trigger language plpgsql as $$ begin raise exception 'audit_events is append-only'; end $$;

create trigger audit_events_no_change before update or delete on audit_events
  for each row execute function audit_events_append_only();

create trigger audit_events_no_truncate before truncate on audit_events
  for each statement execute function audit_events_append_only();
