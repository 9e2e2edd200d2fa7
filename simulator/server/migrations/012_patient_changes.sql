-- The patient search's change log (issue 18, store/patient-index.ts): each server process keeps its organisations'
-- active patients in memory in name order and, before every search, reads only what changed since it last looked.
-- Every statement that inserts, updates or deletes patients bumps its organisation's version by one and logs each
-- changed patient with it. The version row is locked until the writer commits, so an organisation's versions are
-- taken in commit order: a reader that sees version n has seen every change up to n, on any process.
-- Old log rows are swept by the server; a reader that finds a gap in the versions reads the organisation again.
-- The trigger also notifies 'patient_changes' with the organisation: on PGlite the one process hears it before the
-- write's statement returns, and skips the version query while nothing changed (db/database.ts listenInProcess).
create table patient_versions (
  organisation_id text primary key,
  version bigint not null
);
create table patient_changes (
  organisation_id text not null,
  version bigint not null,
  patient_id text not null,
  changed_at timestamptz not null default clock_timestamp()
);
create index patient_changes_by_version on patient_changes (organisation_id, version);
create index patient_changes_changed_at on patient_changes (changed_at);

-- One function for the three statement triggers; `changed` is the transition table of the rows written. (Statements
-- are split on semicolons at line ends (db/migrate.ts): the body's last line ends with `end $$`.)
create function patient_changes_log() returns trigger language plpgsql as $$
begin
  with bumped as (
    insert into patient_versions as v (organisation_id, version)
    select distinct organisation_id, 1 from changed
    on conflict (organisation_id) do update set version = v.version + 1
    returning organisation_id, version
  )
  insert into patient_changes (organisation_id, version, patient_id)
  select c.organisation_id, b.version, c.id from changed c join bumped b using (organisation_id)
  ; perform pg_notify('patient_changes', o.organisation_id) from (select distinct organisation_id from changed) o; return null; end $$;
create trigger patient_changes_insert after insert on patients referencing new table as changed
  for each statement execute function patient_changes_log();
create trigger patient_changes_update after update on patients referencing new table as changed
  for each statement execute function patient_changes_log();
create trigger patient_changes_delete after delete on patients referencing old table as changed
  for each statement execute function patient_changes_log();

-- The search no longer asks the database "which names contain this text" (migration 009's trigram index): dropped, so
-- writes stop paying for it. The name-order index stays: the refresh reads and places patients with it.
drop index patients_search_trgm;
