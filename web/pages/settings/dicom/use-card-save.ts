import { useState } from "react";
import { isApiError } from "../../../../core/model/contract/index.ts";
import type { DicomSettings } from "../../../../core/model/dicom-network.ts";
import { useClient } from "../../../state/client.ts";
import type { FieldId, FieldKind } from "./dicom-form.ts";
import type { ShownErrors } from "./use-field-errors.ts";

// A card's Save: the form's settings (or, when a field is wrong, every message and the summary), then one command,
// client.dicom.saveSettings, with the other card's part as stored. A field the server refuses is shown at the field.

export type SaveState = "idle" | "saving" | "saved" | "failed";

export interface CardSave {
  readonly state: SaveState;
  /** Counts the saves the form refused (the error summary takes the focus at each). */
  readonly refusedAttempts: number;
  /** The server's sentence when a save failed without naming a field of the card. */
  readonly failure: string | null;
  save(settings: DicomSettings | undefined, onSaved: (stored: DicomSettings) => void): Promise<void>;
  /** The form changed: "Saved" and a failure go. */
  changed(): void;
}

export function useCardSave(
  errors: ShownErrors,
  fieldOf: (path: string | undefined) => readonly [FieldId, FieldKind] | undefined,
): CardSave {
  const client = useClient();
  const [state, setState] = useState<SaveState>("idle");
  const [refusedAttempts, setRefused] = useState(0);
  const [failure, setFailure] = useState<string | null>(null);
  return {
    state,
    refusedAttempts,
    failure,
    async save(settings, onSaved) {
      if (settings === undefined) {
        errors.showAll();
        setRefused((n) => n + 1);
        setState("idle");
        return;
      }
      setState("saving");
      setFailure(null);
      try {
        const stored = await client.dicom.saveSettings(settings);
        errors.reset();
        onSaved(stored);
        setState("saved");
      } catch (error) {
        const field = isApiError(error) ? fieldOf(error.field) : undefined;
        if (field) {
          errors.refused(field);
          setRefused((n) => n + 1);
          setState("idle");
        } else {
          setFailure(isApiError(error) && error.status === 400 ? error.message : null);
          setState("failed");
        }
      }
    },
    changed() {
      if (state === "saved" || state === "failed") setState("idle");
    },
  };
}
