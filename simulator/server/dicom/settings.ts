import type { DicomSettings } from "../../../core/model/dicom-network.ts";
import type { Queryable } from "../db/database.ts";

// The organisation's worklist provider and PACS (migration 015): none until a manager sets them.

export const noDicomSettings: DicomSettings = { worklist: null, pacs: null };

export async function dicomSettingsOf(q: Queryable, organisationId: string): Promise<DicomSettings> {
  const rows = await q.query<{ body: DicomSettings }>("select body from dicom_settings where organisation_id = $1", [organisationId]);
  return rows[0]?.body ?? noDicomSettings;
}

export async function saveDicomSettings(q: Queryable, organisationId: string, settings: DicomSettings, now: string): Promise<void> {
  await q.query(
    `insert into dicom_settings (organisation_id, body, updated_at) values ($1, $2, $3)
     on conflict (organisation_id) do update set body = excluded.body, updated_at = excluded.updated_at`,
    [organisationId, JSON.stringify(settings), now],
  );
}
