import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { clipNotes, notesCounter } from "../../../core/rules/notes.ts";
import type { Measurement } from "../../../core/model/measurement.ts";
import { useApi } from "../../state/client.ts";
import { Modal } from "../../ui/Modal.tsx";

type State = "open" | "saving" | "saved" | "error";

/** "Notes dialog: open, saving, then saved (success text) or error text." (accounts seed §4); 256 characters, warns within 10. */
export function NotesDialog({ measurement, onClose, onSaved }: { measurement: Measurement; onClose: () => void; onSaved: (m: Measurement) => void }) {
  const { t } = useLingui();
  const api = useApi();
  const [notes, setNotes] = useState(measurement.notes);
  const [state, setState] = useState<State>("open");
  const counter = notesCounter(notes);
  const save = async () => {
    setState("saving");
    try {
      const saved = await api.call("perimetry.update", { query: { id: measurement.id }, body: { notes } });
      setState("saved");
      onSaved(saved);
    } catch {
      setState("error");
    }
  };
  return (
    <Modal title={t`Notes`} onClose={onClose} closeOnOutsideClick
      actions={<>
        <button type="button" className="btn" onClick={onClose}>{t`Close`}</button>
        <button type="button" className="btn btn-primary" onClick={() => void save()} disabled={state === "saving"}>{state === "saving" ? t`Saving…` : t`Save notes`}</button>
      </>}>
      <div className="field">
        <label htmlFor="notes-text">{t`Notes on this measurement`}</label>
        <textarea id="notes-text" className="input" value={notes} aria-describedby="notes-counter"
          onChange={(e) => { setNotes(clipNotes(e.target.value)); if (state !== "saving") setState("open"); }} />
        <span id="notes-counter" className="field-hint" style={counter.warning ? { color: "var(--warning)", fontWeight: 600 } : undefined} aria-live="polite">
          {t`${counter.length} of ${counter.limit} characters`}
        </span>
      </div>
      {state === "saved" && <div className="alert alert-success" role="status">{t`The notes were saved.`}</div>}
      {state === "error" && <div className="alert alert-error" role="alert">{t`The notes could not be saved. Try again.`}</div>}
    </Modal>
  );
}
