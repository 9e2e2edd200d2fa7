-- Home monitoring, first step (issue 31 §1, §5): a home programme is the seeds' stand-alone mode in scheduled form,
-- bound to one patient. While it is active its headset's stand-alone setting (standalone_id) is the programme's test, and
-- returning the headset, revoking its credential or ending the programme ends the binding at once.
create table home_programmes (
  id text primary key,
  organisation_id text not null references organisations(id) on delete cascade,
  patient_id text not null references patients(id) on delete cascade,
  device_sn text not null,
  -- The stand-alone configuration the headset repeats (standalone_configs.id).
  standalone_id text not null,
  eyes jsonb not null,
  pattern integer not null,
  strategy integer not null,
  -- {kind: daily | weekly | monthly} or {kind: every, days}.
  frequency jsonb not null,
  start_date text not null,
  end_date text not null,
  reminder_time text not null,
  -- The clinic's IANA zone: a result's instant is read as its calendar date there.
  time_zone text not null,
  created_by text not null,
  created_at text not null,
  state text not null default 'active' check (state in ('active', 'ended')),
  ended_at text,
  ended_reason text check (ended_reason in ('returned', 'revoked', 'ended')),
  check ((state = 'active') = (ended_at is null and ended_reason is null))
);
create index home_programmes_patient on home_programmes (organisation_id, patient_id);
create unique index home_programmes_standalone on home_programmes (standalone_id);
-- A headset is bound to one active programme at a time.
create unique index home_programmes_bound on home_programmes (device_sn) where state = 'active';

-- Each home result stored once per programme, session and eye (core/home/due.ts sessionFor); the upload that carried
-- it (device_sn, result_id) is standalone_results' key, so a repeated upload is recognised before this is reached.
-- The review queue (issue 31 §2, a later step) reads these rows: its flags and review state will be columns or a table
-- of their own in a later migration; none are stored yet.
create table home_results (
  programme_id text not null references home_programmes(id) on delete cascade,
  session_index integer not null,
  eye integer not null,
  -- The result's takenAt: adherence reads the sessions from these rows alone.
  taken_at text not null,
  measurement_id text not null unique,
  device_sn text not null,
  result_id text not null,
  -- Where the upload came from (the socket's remote address), as the audit trail has it too.
  address text not null,
  received_at text not null,
  primary key (programme_id, session_index, eye),
  unique (device_sn, result_id)
);
