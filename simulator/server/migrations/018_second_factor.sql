-- A second factor for password accounts (issue 33 item 2): TOTP (RFC 6238) with recovery codes.
-- The shared secret is sealed with a key the database does not hold (auth/secret-box.ts). confirmed_at is null while
-- an enrolment waits for its first code; last_step is the time step of the last code accepted (a code of that step or
-- an earlier one is refused: no replay).
create table second_factors (
  user_id text primary key references users(id) on delete cascade,
  secret_sealed text not null,
  confirmed_at text,
  last_step bigint,
  created_at text not null
);

-- Single-use recovery codes, kept as keyed hashes; used_at marks a used one.
create table recovery_codes (
  user_id text not null references users(id) on delete cascade,
  code_hash text not null,
  used_at text,
  primary key (user_id, code_hash)
);

-- The organisation requires a second factor of every password account (users without one enrol at their next sign-in).
alter table organisations add column second_factor_required boolean not null default false;
