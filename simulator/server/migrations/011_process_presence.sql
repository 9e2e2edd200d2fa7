-- Which server process holds which headset's socket (issue 17): each process keeps a lease it renews every half
-- second; when one dies its lease runs out, another process deletes it and records its headsets disconnected (within
-- the seeds' 4 s). A device command for a headset connected elsewhere goes to the process named here. Unused on PGlite.
create table server_processes (
  id text primary key,
  started_at timestamptz not null default clock_timestamp(),
  lease_until timestamptz not null
);
create table device_presence (
  device_sn text primary key,
  process_id text not null,
  credential_hash text not null,
  since timestamptz not null default clock_timestamp()
);
create index device_presence_process on device_presence (process_id);
