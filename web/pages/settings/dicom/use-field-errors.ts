import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import type { FieldErrors, FieldId, FieldKind } from "./dicom-form.ts";
import { fieldMessages } from "./field-messages.ts";

// When a card shows a field's error: once the field was changed and left, or for every field after a Save the form
// refused; from then on it follows the typing (the message goes as soon as the field is right). A field the server
// refused keeps its message until it is changed.

export interface ShownErrors {
  /** The translated message of a field, when it is shown. */
  message(id: FieldId): string | undefined;
  /** The fields whose message is shown, in the card's order, with their messages (the error summary). */
  readonly shown: ReadonlyArray<readonly [FieldId, string]>;
  /** The field was changed. */
  edited(id: FieldId): void;
  /** The field lost focus. */
  left(id: FieldId): void;
  /** A Save the form refused: every error shows. */
  showAll(): void;
  /** The server refused this field. */
  refused(field: readonly [FieldId, FieldKind]): void;
  /** Saved: nothing shows. */
  reset(): void;
}

const adding = (id: FieldId) => (set: ReadonlySet<FieldId>) => (set.has(id) ? set : new Set([...set, id]));

export function useFieldErrors(errors: FieldErrors): ShownErrors {
  const { i18n } = useLingui();
  const [changed, setChanged] = useState<ReadonlySet<FieldId>>(new Set());
  const [visible, setVisible] = useState<ReadonlySet<FieldId>>(new Set());
  const [all, setAll] = useState(false);
  const [server, setServer] = useState<readonly [FieldId, FieldKind] | null>(null);

  const shownKinds: Array<readonly [FieldId, FieldKind]> = errors.filter(([id]) => all || visible.has(id));
  if (server && !shownKinds.some(([id]) => id === server[0])) shownKinds.push(server);
  const shown = shownKinds.map(([id, kind]) => [id, i18n._(fieldMessages[kind])] as const);

  return {
    message: (id) => shown.find(([f]) => f === id)?.[1],
    shown,
    edited(id) {
      setChanged(adding(id));
      if (server?.[0] === id) setServer(null);
    },
    left(id) {
      if (changed.has(id)) setVisible(adding(id));
    },
    showAll: () => setAll(true),
    refused: (field) => setServer(field),
    reset() {
      setChanged(new Set());
      setVisible(new Set());
      setAll(false);
      setServer(null);
    },
  };
}
