import { useCallback, useMemo, useState } from "react";
import { baselineToggleState, toggleBaseline as nextBaseline, type BaselineIds, type MarkedResult } from "../../core/analytics/progression/baseline.ts";
import { readBaseline, readUnreliable, setUnreliable as storeUnreliable, toggleBaseline as storeBaseline } from "../../core/client/local-marks.ts";
import { readClientSettings, updateClientSettings } from "../../core/client/local-settings.ts";
import type { ClientSettings } from "../../core/model/client-settings.ts";
import { useServices } from "../state/client.ts";

// The result page's local marks and settings (accounts seed §3: "Client settings in local storage ... unreliable
// result ids, baseline ids (left id, right id)"), read and written through core/client over the web's storage.
// The rules are core/analytics' (progression/baseline.ts); this hook only keeps React in step with the store.

export interface ResultMarks {
  readonly baseline: BaselineIds;
  readonly unreliable: ReadonlySet<string>;
  /** Sets or clears the result as its eye's baseline; does nothing when the rules disable the toggle. */
  toggleBaseline(result: MarkedResult): void;
  /** Marks a result unreliable or reliable again (which also clears its baseline mark). */
  setUnreliable(id: string, unreliable: boolean): void;
}

export function useResultMarks(): ResultMarks {
  const { storage } = useServices();
  const [version, setVersion] = useState(0);
  const bump = useCallback(() => setVersion((v) => v + 1), []);
  const marks = useMemo(() => {
    const [left, right] = readBaseline(storage.local);
    return { baseline: { left, right }, unreliable: new Set(readUnreliable(storage.local)) };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [storage, version]);
  const toggleBaseline = useCallback((result: MarkedResult) => {
    const next = nextBaseline(marks.baseline, result, marks.unreliable);
    if (next.left === marks.baseline.left && next.right === marks.baseline.right) return;
    storeBaseline(storage.local, result.eye, result.id);
    bump();
  }, [marks, storage, bump]);
  const setUnreliable = useCallback((id: string, unreliable: boolean) => {
    storeUnreliable(storage.local, id, unreliable);
    bump();
  }, [storage, bump]);
  return { ...marks, toggleBaseline, setUnreliable };
}

export { baselineToggleState };

/** The client settings (panels expanded, analysis pattern) with a writer that persists each change. */
export function useClientSettings(): [ClientSettings, (change: Partial<ClientSettings>) => void] {
  const { storage } = useServices();
  const [settings, setSettings] = useState<ClientSettings>(() => readClientSettings(storage.local));
  const update = useCallback((change: Partial<ClientSettings>) => setSettings(updateClientSettings(storage.local, change)), [storage]);
  return [settings, update];
}
