-- perimetry/page (the export's call across patients) walks the organisation's results in (patient, takenAt, id)
-- order with a keyset cursor: this index serves each page as a range scan, so a late page costs what the first does.
-- Byte order (collate "C"), so PGlite and a PostgreSQL cluster of any locale give the same order.
create index measurements_results_page
  on measurements (organisation_id, patient_id collate "C", taken_at collate "C", id collate "C")
  where result is not null and trashed_at is null;
