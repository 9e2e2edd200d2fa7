-- Results imported from other perimeters and systems (issue 29): each field's key (its SOP Instance UID, FHIR
-- identifier, or CSV id/eye/date/time) once per organisation, so importing the same file again changes nothing. The
-- result itself is a measurement like any other (no device, its result's `source` naming where it came from). A
-- measurement deleted for good takes its key with it: importing the file again brings the field back.
create table imported_results (
  organisation_id text not null references organisations(id) on delete cascade,
  source_key text not null,
  measurement_id text not null references measurements(id) on delete cascade,
  format text not null,
  file_name text,
  imported_at text not null,
  primary key (organisation_id, source_key)
);
create index imported_results_measurement on imported_results (measurement_id);
