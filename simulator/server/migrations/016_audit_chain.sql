-- Issue 33 §3: the audit trail as a hash chain. Each entry written from here on carries its place in the chain (seq,
-- 0, 1, 2, ... without gaps), the hash of the entry before it (prev_hash) and its own hash (hash: SHA-256 over the
-- canonical encoding in simulator/server/audit/chain.ts). `note` says what the trail did to an event to store it (values
-- cut to a stated length, or a reduced form and why: issue 33 §6). Entries from before this migration keep seq null;
-- the chain's first entry (seq 0, written by the trail at its first append, audit.chainStart) counts them and names
-- the last of their ids, so `isopter audit verify` also sees one of them removed or one added later without a place.
alter table audit_events add column seq bigint;

alter table audit_events add column prev_hash text;

alter table audit_events add column hash text;

alter table audit_events add column note text;

-- One entry per place: two writers that did not take the chain's lock could not both append at the same place.
create unique index audit_events_seq on audit_events (seq);
