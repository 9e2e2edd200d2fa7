import { useLingui } from "@lingui/react/macro";
import { TextInput } from "../../../ui/TextInput.tsx";
import type { FieldId, NodeForm } from "./dicom-form.ts";
import type { ShownErrors } from "./use-field-errors.ts";

// A peer's address and the association's AE titles: host, port, the peer's AE title and ours (the station's), each
// with its error under it (aria-describedby, TextInput).

/** The element id of a card's field. */
export const inputIdOf = (prefix: string, id: FieldId) => `${prefix}-${id.replace(/\./g, "-")}`;

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
    id: inputIdOf(prefix, id),
    value: node[id],
    error: errors.message(id),
    required: true,
    autoComplete: "off",
    spellCheck: false,
    onChange: (value: string) => {
      errors.edited(id);
      onChange({ ...node, [id]: value });
    },
    onBlur: () => errors.left(id),
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
