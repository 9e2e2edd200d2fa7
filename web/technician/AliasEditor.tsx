import { useEffect, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import type { Device } from "../../core/model/device.ts";
import { useSetAtom } from "jotai";
import { useApi } from "../state/client.ts";
import { patchDeviceAtom } from "../state/devices.ts";

/** "alias error 1 s" (scheduling seed §9). */
export const ALIAS_ERROR_MS = 1_000;

/** The lane's name; a click renames it. "The device alias form sends only a non-empty alias." */
export function AliasEditor({ device }: { device: Device }) {
  const { t } = useLingui();
  const api = useApi();
  const [draft, setDraft] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const patchDevice = useSetAtom(patchDeviceAtom);

  useEffect(() => {
    if (!failed) return;
    const timer = setTimeout(() => setFailed(false), ALIAS_ERROR_MS);
    return () => clearTimeout(timer);
  }, [failed]);

  const name = device.alias || device.deviceSn;
  if (draft === null)
    return (
      <span className="lane-id">
        <button type="button" className="lane-alias" onClick={() => setDraft(device.alias)} aria-label={t`Rename ${name}`}>{name}</button>
        <span className="lane-sn">{device.deviceSn}</span>
        {failed && <span className="alias-error" role="alert">{t`The name could not be changed.`}</span>}
      </span>
    );

  const submit = async () => {
    const alias = draft.trim();
    if (alias === "" || alias === device.alias) { setDraft(null); return; }
    setSaving(true);
    try {
      const answer = await api.call("device.update", { query: { id: device.id }, body: { alias } });
      patchDevice({ id: device.id, patch: { alias: answer.alias } });
      setDraft(null);
    } catch {
      setDraft(null);
      setFailed(true);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="lane-id" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
      <span className="alias-form">
        <label className="visually-hidden" htmlFor={`alias-${device.id}`}>{t`Device name`}</label>
        <input id={`alias-${device.id}`} className="input" value={draft} autoFocus maxLength={64}
          onChange={(e) => setDraft(e.target.value)} onKeyDown={(e) => { if (e.key === "Escape") setDraft(null); }} />
        <button type="submit" className="btn btn-sm btn-primary" disabled={saving || draft.trim() === ""}>{t`Save`}</button>
        <button type="button" className="btn btn-sm" onClick={() => setDraft(null)}>{t`Cancel`}</button>
      </span>
      <span className="lane-sn">{device.deviceSn}</span>
    </form>
  );
}
