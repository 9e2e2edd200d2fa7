-- perimetry/page passes stored results through as JSON text (http/pre-encoded.ts). Printing a jsonb result is most of
-- what a page costs inside PostgreSQL (about half on PGlite), so the database keeps the printed form beside it, kept
-- up to date by PostgreSQL itself on every write; only that call reads it.
alter table measurements add column result_text text generated always as (result::text) stored;
