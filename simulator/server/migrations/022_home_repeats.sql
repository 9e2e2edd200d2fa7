-- Repeats (issue 31 §2: the clinician asks for a repeat): a one-off session of a home programme, asked for on a
-- review item of a home result (core/home/repeat.ts). Its result is stored in home_results under the session index
-- -number (regular sessions count from 0), so that table's key (programme, session index, eye) takes it at most once
-- per eye, and the readers of regular sessions pass it by. One repeat per item, numbered per programme from 1.
create table home_repeats (
  programme_id text not null references home_programmes(id) on delete cascade,
  number integer not null check (number >= 1),
  review_item_id text not null unique references review_items(id) on delete cascade,
  -- The eyes to test (the item's result's eye), as a JSON array of eye codes.
  eyes jsonb not null,
  -- Its window: calendar dates in the programme's zone, both days included.
  from_date text not null,
  to_date text not null,
  requested_by text not null,
  requested_at text not null,
  primary key (programme_id, number)
);
