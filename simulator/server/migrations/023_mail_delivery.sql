-- Mail delivery (issue 31 §3): the outbox stays the record of every message (written in the transaction that caused
-- it); where SMTP_URL is set, notify/delivery.ts sends its rows and records each attempt here. A row is unsent while
-- sent_at and given_up_at are null; next_attempt_at is when it may be tried (or, while claimed, when the claim lapses).
alter table outbox add column sent_at text;
alter table outbox add column attempts integer not null default 0;
alter table outbox add column next_attempt_at text;
alter table outbox add column last_error text;
alter table outbox add column given_up_at text;
-- Mail written before delivery existed was never meant to leave the machine (development mode): it stays unsent.
update outbox set given_up_at = created_at, last_error = 'written before SMTP delivery existed (migration 023)';
create index outbox_unsent on outbox (next_attempt_at, id) where sent_at is null and given_up_at is null;
-- The patient's address for reminders of missed sessions and repeats (the patient record has no e-mail field).
alter table home_programmes add column reminder_email text;
