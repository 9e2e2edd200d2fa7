import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import type { Device } from "../../core/model/device.ts";
import { useClient, useClientState } from "../state/client.ts";

/** The lane's name; a click renames it. "The device alias form sends only a non-empty alias." (core/client) */
export function AliasEditor({ device }: { device: Device }) {
  const { t } = useLingui();
  // core/client keeps the failure for "alias error 1 s" and announces its end.
  const client = useClient();
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const failed = useClientState((c) => c.devices.aliasError(device.deviceSn));

  const name = device.alias || device.deviceSn;
  if (draft === null)
    return (
      <span className="lane-id">
        <button type="button" className="lane-alias" onClick={() => setDraft(device.alias)} aria-label={t`Rename ${name}`}>
          {name}
        </button>
        <span className="lane-sn">{device.deviceSn}</span>
        {failed && <span className="alias-error" role="alert">{t`The name could not be changed.`}</span>}
      </span>
    );

  const submit = async () => {
    const alias = draft.trim();
    if (alias === "" || alias === device.alias) {
      setDraft(null);
      return;
    }
    setSaving(true);
    await client.devices.rename(device.deviceSn, alias);
    setSaving(false);
    setDraft(null);
  };

  return (
    <form
      className="lane-id"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <span className="alias-form">
        <label className="visually-hidden" htmlFor={`alias-${device.id}`}>{t`Device name`}</label>
        <input
          id={`alias-${device.id}`}
          className="input"
          value={draft}
          // biome-ignore lint/a11y/noAutofocus: the field appears because the user asked to rename; focus goes where they asked
          autoFocus
          maxLength={64}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape") setDraft(null);
          }}
        />
        <button type="submit" className="btn btn-sm btn-primary" disabled={saving || draft.trim() === ""}>{t`Save`}</button>
        <button type="button" className="btn btn-sm" onClick={() => setDraft(null)}>{t`Cancel`}</button>
      </span>
      <span className="lane-sn">{device.deviceSn}</span>
    </form>
  );
}
