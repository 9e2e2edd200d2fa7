-- The clinic's DICOM network (issue 29): its worklist provider and PACS (one row per organisation, as the settings
-- call sets them), and the worklist steps seen, so that a step the provider lists again is not queued twice.
create table dicom_settings (
  organisation_id text primary key references organisations(id) on delete cascade,
  body jsonb not null,
  updated_at text not null
);
create table worklist_steps (
  organisation_id text not null references organisations(id) on delete cascade,
  -- The step's identity at the provider: its Scheduled Procedure Step ID with the Accession Number and patient.
  step_key text not null,
  -- The measurement or appointment queued for it (null when the step was only matched, with no headset set).
  queued_id text,
  seen_at text not null,
  primary key (organisation_id, step_key)
);
