-- Headset enrolment (issue 15, point 1): a headset proves who it is before it is told anything. A manager enrols a
-- serial and gets a device credential (shown once) or a one-time pairing code the headset exchanges for one. Only
-- SHA-256 hashes are kept. A device from before this migration has neither: it cannot connect until it is enrolled.
alter table devices add column credential_hash text;
alter table devices add column pairing_hash text;
alter table devices add column pairing_expires_at text;
alter table devices add column enrolled_at text;
alter table devices add column revoked_at text;

-- A stand-alone result is stored once per headset and resultId: keyed by the serial too, so one headset cannot
-- claim another's resultId and have that headset's result taken for a repeat.
alter table standalone_results drop constraint standalone_results_pkey;
alter table standalone_results add primary key (device_sn, result_id);
