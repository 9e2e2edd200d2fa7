-- What must be unique is enforced by the database, so concurrent writers cannot double it (issue 16): the handlers
-- retry a write that hit one of these once, and then answer as if the writers had come one after the other.
-- Existing duplicates are cleaned up first (kept: the oldest; the others renamed or, for pending invitations, removed).

-- A patient's uniqueId within an organisation. Later duplicates keep their data and get ' (duplicate N)' appended.
update patients p
   set body = jsonb_set(p.body, '{uniqueId}', to_jsonb((p.body->>'uniqueId') || ' (duplicate ' || d.n || ')')),
       search = lower(p.name || ' ' || (p.body->>'uniqueId') || ' (duplicate ' || d.n || ')')
  from (select id, row_number() over (partition by organisation_id, body->>'uniqueId' order by created_at, id) - 1 as n from patients) d
 where d.id = p.id and d.n > 0;
create unique index patients_org_unique_id on patients (organisation_id, (body->>'uniqueId'));

-- One account or pending invitation per e-mail address, whatever its case. A pending invitation that doubles another
-- account is dropped; accounts that differ only in case keep working, the later ones with a marked address.
delete from users u
 where u.state = 'invited'
   and exists (select 1 from users o where lower(o.email) = lower(u.email) and o.id <> u.id
                 and (o.state = 'active' or o.created_at < u.created_at or (o.created_at = u.created_at and o.id < u.id)));
update users u
   set email = u.email || '.duplicate-' || d.n
  from (select id, row_number() over (partition by lower(email) order by created_at, id) - 1 as n from users) d
 where d.id = u.id and d.n > 0;
create unique index users_email_lower on users (lower(email));

-- One result per measurement and per examination: once stored, a result is never replaced (a concurrent second upload
-- or a read-modify-write that read the row before the result came fails here and is retried by the handler).
create function measurements_one_result() returns trigger as $$ begin if old.result is not null and new.result is distinct from old.result then raise exception 'measurement % already has a result', old.id using errcode = 'unique_violation', constraint = 'measurements_one_result'; end if; return new; end $$ language plpgsql;
create trigger measurements_one_result before update of result on measurements for each row execute function measurements_one_result();
create function examinations_one_result() returns trigger as $$ begin if old.taken_at is not null and (new.taken_at is distinct from old.taken_at or new.result is distinct from old.result) then raise exception 'examination % already has a result', old.id using errcode = 'unique_violation', constraint = 'examinations_one_result'; end if; return new; end $$ language plpgsql;
create trigger examinations_one_result before update of result, taken_at on examinations for each row execute function examinations_one_result();

-- A stand-alone upload's identity (device + the headset's resultId, or device + stand-alone data + takenAt for
-- perimetry/upload)
-- is the primary key of standalone_results; one upload makes one measurement.
create unique index standalone_results_measurement on standalone_results (measurement_id);
