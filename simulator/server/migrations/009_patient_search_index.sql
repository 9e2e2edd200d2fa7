-- Patient search served from indexes (issue 18): a trigram index answers "search contains the text" for texts of three
-- characters or more without reading every patient, and the organisation's active patients in name order let the
-- planner walk a page in order and stop (texts of one or two characters match many patients, so the walk stops soon).
-- fastupdate off: PGlite runs no autovacuum, so a pending list of new entries would never be merged and every search
-- would read it through; patients are registered one at a time, so updating the index on insert costs little.
-- pg_trgm is a trusted extension on PostgreSQL 13+ and bundled with PGlite (loaded in db/pglite.ts).
create extension if not exists pg_trgm;
create index patients_search_trgm on patients using gin (search gin_trgm_ops) with (fastupdate = off);
-- The name order of 001, now with the id that breaks ties (the search's and patient.all's order) and only the active
-- patients that search and lanes read, so a walk never steps over the bin.
drop index patients_org_name;
create index patients_active_by_name on patients (organisation_id, lower(name), id) where trashed_at is null
