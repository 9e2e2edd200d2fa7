-- Isopter clinic backend: first schema. Runs unchanged on PGlite and PostgreSQL.
-- Instants are ISO-8601 text (sortable, identical on both engines). Entity fields the seeds list but the server never
-- queries on live in `body` (jsonb); everything the server filters, orders or joins on is a column.

create table settings (
  key text primary key,
  value text not null
);

create table organisations (
  id text primary key,
  name text not null,
  multi_tests boolean not null default false,
  market text not null default 'MDR',
  country text,
  created_at text not null
);

create table users (
  id text primary key,
  organisation_id text not null references organisations(id) on delete cascade,
  username text unique,
  email text not null unique,
  role text not null,
  password_hash text,
  -- 'active' once a password is set; 'invited' until the invitation is accepted
  state text not null,
  invitation_token_hash text,
  language text not null default 'en',
  session_id text,
  created_at text not null
);

create table password_resets (
  token_hash text primary key,
  user_id text not null references users(id) on delete cascade,
  expires_at text not null,
  used_at text
);

-- Our design: outgoing e-mail is written here instead of being sent; tests and the CLI read it (admins only).
create table outbox (
  id bigserial primary key,
  organisation_id text,
  to_email text not null,
  subject text not null,
  body text not null,
  link text,
  created_at text not null
);

create table patients (
  id text primary key,
  organisation_id text not null references organisations(id) on delete cascade,
  name text not null,
  birthdate text not null,
  body jsonb not null,
  created_at text not null,
  updated_at text not null,
  trashed_at text
);
create index patients_org_name on patients (organisation_id, lower(name));
create index patients_org_birthdate on patients (organisation_id, birthdate);

create table devices (
  id text primary key,
  organisation_id text not null references organisations(id) on delete cascade,
  device_sn text not null unique,
  alias text not null,
  status text not null default 'notconnected',
  connection text not null default 'DISCONNECTED',
  last_seen text,
  standalone_id text,
  revision integer not null default 0,
  battery jsonb not null default '{}'::jsonb,
  created_at text not null
);

-- Measurements (perimetry). device_sn + queue_position place an unfinished one in a device's lane.
create table measurements (
  id text primary key,
  organisation_id text not null references organisations(id) on delete cascade,
  patient_id text not null references patients(id) on delete cascade,
  device_sn text,
  queue_position integer,
  body jsonb not null,
  result jsonb,
  taken_at text,
  created_at text not null,
  updated_at text not null,
  trashed_at text
);
create index measurements_patient on measurements (patient_id);
create index measurements_device on measurements (device_sn, queue_position);

create table standalone_configs (
  id text primary key,
  organisation_id text not null references organisations(id) on delete cascade,
  device_sn text not null,
  body jsonb not null,
  created_at text not null
);

-- Exactly-once for results uploaded after stand-alone runs: a resultId is accepted once.
create table standalone_results (
  result_id text primary key,
  device_sn text not null,
  measurement_id text not null,
  received_at text not null
);

create table appointments (
  id text primary key,
  organisation_id text not null references organisations(id) on delete cascade,
  patient_id text not null references patients(id) on delete cascade,
  device_sn text,
  queue_position integer,
  body jsonb not null,
  created_at text not null,
  updated_at text not null,
  trashed_at text
);

create table examinations (
  id text primary key,
  organisation_id text not null references organisations(id) on delete cascade,
  patient_id text not null references patients(id) on delete cascade,
  appointment_id text references appointments(id) on delete cascade,
  device_sn text,
  position integer not null default 0,
  type text not null,
  body jsonb not null,
  result jsonb,
  taken_at text,
  created_at text not null,
  updated_at text not null,
  trashed_at text
);
create index examinations_patient on examinations (patient_id);
create index examinations_appointment on examinations (appointment_id, position);

create table templates (
  id text primary key,
  organisation_id text not null references organisations(id) on delete cascade,
  name text not null,
  tests jsonb not null,
  created_at text not null,
  updated_at text not null
);
