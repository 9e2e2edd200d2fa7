-- Patient search text: lower-case name and unique id, kept by the server on every write, so a search scans one plain
-- column instead of lower()-ing the name and unpacking the json body per row.
alter table patients add column search text not null default '';
update patients set search = lower(name || ' ' || coalesce(body->>'uniqueId', ''));
