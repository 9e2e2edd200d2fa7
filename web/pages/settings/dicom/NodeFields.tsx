import { useLingui } from "@lingui/react/macro";
import { TextInput } from "../../../ui/TextInput.tsx";
import type { FieldId, NodeForm } from "./dicom-form.ts";
import type { ShownErrors } from "./use-field-errors.ts";

// A peer's address and the association's AE titles: host, port, the peer's AE title and ours (the station's), each
// with its error under it (aria-describedby, TextInput).

/** The element id of a card's field. */
export const inputIdOf = (prefix: string, id: FieldId) => `${prefix}-${id.replace(/\./g, "-")}`;

/** A card's text field wired to its form value and to the error rules on edit and on leaving (use-field-errors.ts). */
export const fieldProps = (prefix: string, id: FieldId, value: string, errors: ShownErrors, onValue: (value: string) => void) => ({
  id: inputIdOf(prefix, id),
  value,
  error: errors.message(id),
  onChange: (next: string) => {
    errors.edited(id);
    onValue(next);
  },
  onBlur: () => errors.left(id),
});

export interface NodeLabels {
  readonly host: string;
  readonly port: string;
  readonly calledAeTitle: string;
  readonly callingAeTitle: string;
}

export function useNodeLabels(peer: "worklist" | "pacs"): NodeLabels {
  const { t } = useLingui();
  return {
    host: t`Host`,
    port: t`Port`,
    calledAeTitle: peer === "worklist" ? t`Provider's AE title` : t`PACS AE title`,
    callingAeTitle: t`Station AE title (Isopter's)`,
  };
}

export function NodeFields({
  prefix,
  node,
  labels,
  errors,
  onChange,
}: {
  prefix: string;
  node: NodeForm;
  labels: NodeLabels;
  errors: ShownErrors;
  onChange: (node: NodeForm) => void;
}) {
  const { t } = useLingui();
  const field = (id: keyof NodeForm) => ({
    ...fieldProps(prefix, id, node[id], errors, (value) => onChange({ ...node, [id]: value })),
    required: true,
    autoComplete: "off",
    spellCheck: false,
  });
  return (
    <div className="dicom-grid">
      <TextInput label={labels.host} hint={t`A host name or an IP address.`} {...field("host")} />
      <TextInput label={labels.port} inputMode="numeric" {...field("port")} />
      <TextInput label={labels.calledAeTitle} hint={t`As the peer is configured.`} {...field("calledAeTitle")} />
      <TextInput label={labels.callingAeTitle} hint={t`The peer must know this AE title.`} {...field("callingAeTitle")} />
    </div>
  );
}
