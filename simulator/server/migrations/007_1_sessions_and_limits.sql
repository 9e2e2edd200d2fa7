-- Issue 15 §2, §3: server-side sessions and login limits, kept in the database so every server process on it agrees.

-- Every access token names its session; a token of an ended session is refused at once (logout, password change or
-- reset, role change, another session opened). Deleting a user deletes their sessions.
create table sessions (
  id text primary key,
  user_id text not null references users(id) on delete cascade,
  organisation_id text not null,
  address text,
  created_at text not null,
  ended_at text,
  end_reason text
);
create index sessions_open_by_user on sessions (user_id) where ended_at is null;

-- Attempts per key ('login-account:<username>', 'login-address:<ip>', 'password-change:<user id>',
-- 'reset-address:<ip>', 'reset-email:<address>') in fixed windows; one upsert per attempt takes the row lock, so
-- concurrent attempts are counted one after the other.
create table auth_limits (
  key text primary key,
  window_start bigint not null,
  attempts integer not null
);

-- Where an account has logged in before: a blocked address does not keep out the staff who work there.
create table login_addresses (
  username text not null,
  address text not null,
  last_success_at text not null,
  primary key (username, address)
);

-- The shared session_id column on users is replaced by the sessions table.
alter table users drop column session_id;
