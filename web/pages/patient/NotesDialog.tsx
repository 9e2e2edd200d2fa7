import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { clipNotes, notesCounter } from "../../../core/rules/notes.ts";
import type { PerimetryTest } from "../../results/result-model.ts";
import { useClient } from "../../state/client.ts";
import { Modal } from "../../ui/Modal.tsx";

type State = "open" | "saving" | "saved" | "error";

/**
 * "Notes dialog: open, saving, then saved (success text) or error text." (accounts seed §4); 256 characters, warns
 * within 10. A measurement's notes go through PATCH perimetry, a perimetry examination's through PATCH
 * examination/update with its notes-only body (appointment variant).
 */
export function NotesDialog({
  measurement,
  onClose,
}: {
  measurement: Pick<PerimetryTest, "id" | "source" | "notes">;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const client = useClient();
  const [notes, setNotes] = useState(measurement.notes);
  const [state, setState] = useState<State>("open");
  const counter = notesCounter(notes);
  const save = async () => {
    setState("saving");
    try {
      await client.results.saveNotes(measurement.source, measurement.id, notes);
      // core/client reads the list it shows in again.
      setState("saved");
    } catch {
      setState("error");
    }
  };
  return (
    <Modal
      title={t`Notes`}
      onClose={onClose}
      closeOnOutsideClick
      actions={
        <>
          <button type="button" className="btn" onClick={onClose}>{t`Close`}</button>
          <button type="button" className="btn btn-primary" onClick={() => void save()} disabled={state === "saving"}>
            {state === "saving" ? t`Saving…` : t`Save notes`}
          </button>
        </>
      }
    >
      <div className="field">
        <label htmlFor="notes-text">{t`Notes on this measurement`}</label>
        <textarea
          id="notes-text"
          className="input"
          value={notes}
          aria-describedby="notes-counter"
          onChange={(e) => {
            setNotes(clipNotes(e.target.value));
            if (state !== "saving") setState("open");
          }}
        />
        <span
          id="notes-counter"
          className="field-hint"
          style={counter.warning ? { color: "var(--warning)", fontWeight: 600 } : undefined}
          aria-live="polite"
        >
          {t`${counter.length} of ${counter.limit} characters`}
        </span>
      </div>
      {state === "saved" && <div className="alert alert-success" role="status">{t`The notes were saved.`}</div>}
      {state === "error" && <div className="alert alert-error" role="alert">{t`The notes could not be saved. Try again.`}</div>}
    </Modal>
  );
}
