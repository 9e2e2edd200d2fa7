import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { CacheKey } from "../../../core/client/index.ts";
import { type ReviewItemView, isApiError } from "../../../core/model/contract/index.ts";
import { eyeNames } from "../../i18n/names.ts";
import { useDateFormat } from "../../i18n/format.ts";
import { useApi, useCache } from "../../state/client.ts";
import { Modal } from "../../ui/Modal.tsx";
import { Select } from "../../ui/Select.tsx";

export type ReviewAction = "mark" | "note" | "repeat" | "book";

const NOTE_LIMIT = 256; // the seeds' notes limit (accounts seed §3: notes max 256)

/**
 * What the clinician does with a review item, confirmed like the app's other actions: the dialog names the patient,
 * eye and date. A note is written in it; a clinic visit is booked as a measurement queued on a headset of the clinic.
 */
export function ReviewActionDialog({
  action,
  item,
  onCancel,
  onDone,
}: {
  action: ReviewAction;
  item: ReviewItemView;
  onCancel: () => void;
  onDone: (notice: string) => void;
}) {
  const { t, i18n } = useLingui();
  const api = useApi();
  const format = useDateFormat();
  const devices = useCache(CacheKey.Devices, {});
  const [note, setNote] = useState(item.note ?? "");
  const [deviceSn, setDeviceSn] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const texts: Record<ReviewAction, { title: string; confirm: string; done: string }> = {
    mark: { title: t`Mark this result reviewed?`, confirm: t`Mark reviewed`, done: t`The result was marked reviewed.` },
    note: { title: t`Add a note`, confirm: t`Save note`, done: t`The note was saved.` },
    repeat: { title: t`Ask for a repeat?`, confirm: t`Ask for a repeat`, done: t`The patient is asked to repeat the test.` },
    book: { title: t`Book a clinic visit?`, confirm: t`Book visit`, done: t`A clinic visit was booked.` },
  };
  const text = texts[action];
  const run = async () => {
    setBusy(true);
    setError(null);
    const query = { id: item.id };
    try {
      if (action === "mark") await api.call("review.mark", { query, body: {} });
      else if (action === "note") await api.call("review.note", { query, body: { note: note.trim() } });
      else if (action === "repeat") await api.call("review.repeat", { query });
      else await api.call("review.book", { query, body: { deviceSn } });
      onDone(text.done);
    } catch (e) {
      setError(
        isApiError(e) && e.isType("not_found") ? t`This result or headset no longer exists.` : t`This could not be saved. Try again later.`,
      );
      setBusy(false);
    }
  };
  const ready = !busy && (action !== "note" || note.trim() !== "") && (action !== "book" || deviceSn !== "");
  return (
    <Modal
      title={text.title}
      onClose={onCancel}
      role={action === "note" ? "dialog" : "alertdialog"}
      closeButton={false}
      actions={
        <>
          <button type="button" className="btn" onClick={onCancel}>{t`Cancel`}</button>
          <button type="button" className="btn btn-primary" disabled={!ready} onClick={() => void run()}>
            {text.confirm}
          </button>
        </>
      }
    >
      {error && (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      )}
      <dl className="test-subject">
        <dt>{t`Patient`}</dt>
        <dd>
          <span data-user-text>{item.patient.name}</span>
        </dd>
        <dt>{t`Eye`}</dt>
        <dd>{item.eye === null ? t`Both eyes` : i18n._(eyeNames[item.eye])}</dd>
        <dt>{t`Date`}</dt>
        <dd>{format.dateTime(item.takenAt)}</dd>
      </dl>
      {action === "repeat" && <p>{t`The patient is asked to repeat the test at home.`}</p>}
      {action === "note" && (
        <div className="field">
          <label htmlFor="review-note">{t`Note`}</label>
          <textarea id="review-note" className="input" value={note} maxLength={NOTE_LIMIT} onChange={(e) => setNote(e.target.value)} />
        </div>
      )}
      {action === "book" && (
        <>
          <p>{t`The programme's test is queued for the patient's visit on the chosen clinic headset.`}</p>
          <Select
            label={t`Headset`}
            required
            value={deviceSn}
            placeholder={t`Choose a headset`}
            options={(devices.data ?? []).map((d) => ({ value: d.deviceSn, label: d.alias ? `${d.alias} (${d.deviceSn})` : d.deviceSn }))}
            onChange={setDeviceSn}
          />
        </>
      )}
    </Modal>
  );
}
