-- perimetry/page filters on the result's pattern and eye (an export of one pattern, `isopter export --pattern`). Read
-- from the jsonb, each row's result (about 3 kB, stored compressed out of line) was decompressed for two short values:
-- about 0.1 s of the count of 10,000 results on PGlite, and a third of a page's reading. The values are kept beside
-- the result, kept up to date by PostgreSQL itself on every write, as result_text is (004, 005).
alter table measurements add column result_pattern text generated always as (result->>'pattern') stored;
alter table measurements add column result_eye text generated always as (result->>'eye') stored;
alter table examinations add column result_pattern text generated always as (result->>'pattern') stored;
alter table examinations add column result_eye text generated always as (result->>'eye') stored;
