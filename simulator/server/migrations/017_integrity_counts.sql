-- The row counts of every table as the last clean shutdown, backup or restore saw them (issue 33, integrity/record.ts),
-- on PostgreSQL; PGlite keeps them in a file beside its data directory. One row: the record is a unit, written whole.
-- A table of its own (its own file), so damage to a data table cannot take that table's recorded count with it, and
-- the integrity pass reads this table's pages and checks its primary key like any other's.
create table integrity_counts (
  id int primary key check (id = 1),
  record jsonb not null
);
