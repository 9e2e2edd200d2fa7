-- perimetry/page walks the organisation's taken perimetry examinations (appointment variant) too, merged with its
-- measurements in the one (patient, takenAt, id) order: examinations get what 003 and 004 gave measurements, an index
-- that serves each page as a range scan (byte order, collate "C") and the result as printed when it was written.
-- examinations.taken_at is the result's takenAt once the result is there (store/examinations.ts).
create index examinations_results_page
  on examinations (organisation_id, patient_id collate "C", taken_at collate "C", id collate "C")
  where type = 'perimetry' and result is not null and taken_at is not null and trashed_at is null;
alter table examinations add column result_text text generated always as (result::text) stored;
