-- The review queue (issue 31 §2, §3): a home result's triage (core/home) stored when the result arrives, and a
-- programme's missed sessions, each an item a clinician reviews. Flags are core/home's triage as JSON (kinds in order of
-- need, each with its reasons and figures); need_rank orders the queue (core/home orderByNeed's first key).
create table review_items (
  id text primary key,
  organisation_id text not null references organisations(id) on delete cascade,
  patient_id text not null references patients(id) on delete cascade,
  programme_id text not null references home_programmes(id) on delete cascade,
  kind text not null check (kind in ('result', 'missed')),
  -- The result's measurement (kind result); null for missed sessions.
  measurement_id text unique references measurements(id) on delete cascade,
  eye integer,
  taken_at text not null,
  -- Missed sessions: the last session missed and its window; one item per programme and session.
  session_index integer,
  session_from text,
  session_to text,
  flags jsonb not null default '[]'::jsonb,
  need_rank integer not null,
  flag_count integer not null default 0,
  triage text not null default 'done' check (triage in ('done', 'failed')),
  state text not null default 'new' check (state in ('new', 'reviewed')),
  note text,
  reviewed_by text,
  reviewed_at text,
  repeat_requested_at text,
  booked_measurement_ids jsonb not null default '[]'::jsonb,
  created_at text not null,
  check ((kind = 'result') = (measurement_id is not null)),
  unique (programme_id, session_index)
);
create index review_items_queue on review_items (organisation_id, state, need_rank, flag_count desc, taken_at, id);

-- Messages sent through the sender port (reminders for missed sessions, notices of flagged results), once each: the
-- key names what the message is about (e.g. "missed:<programme>:<session>", "flagged:<item>").
create table review_notices (
  organisation_id text not null references organisations(id) on delete cascade,
  key text not null,
  recipient text,
  -- sent: handed to the sender; no-address: the recipient has no e-mail on record (noted, nothing sent).
  outcome text not null check (outcome in ('sent', 'no-address')),
  created_at text not null,
  primary key (organisation_id, key)
);
