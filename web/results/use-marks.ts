import { useCallback, useMemo } from "react";
import {
  baselineToggleState,
  toggleBaseline as nextBaseline,
  type BaselineIds,
  type MarkedResult,
} from "../../core/analytics/progression/baseline.ts";
import type { ClientSettings } from "../../core/model/client-settings.ts";
import { useClient, useClientState } from "../state/client.ts";

// The result page's local marks and settings (accounts seed §3: "Client settings in local storage ... unreliable
// result ids, baseline ids (left id, right id)"), read and written through core/client's marks facet. The rules are
// core/analytics' (progression/baseline.ts).

export interface ResultMarks {
  readonly baseline: BaselineIds;
  readonly unreliable: ReadonlySet<string>;
  /** Sets or clears the result as its eye's baseline; does nothing when the rules disable the toggle. */
  toggleBaseline(result: MarkedResult): void;
  /** Marks a result unreliable or reliable again (which also clears its baseline mark). */
  setUnreliable(id: string, unreliable: boolean): void;
}

const toMarks = (pair: readonly [string | null, string | null], unreliable: readonly string[]) => ({
  baseline: { left: pair[0], right: pair[1] },
  unreliable: new Set(unreliable),
});

export function useResultMarks(): ResultMarks {
  const client = useClient();
  // The facet answers the same stored values until a write, so the marks are rebuilt only after one.
  const pair = useClientState((c) => c.marks.baseline);
  const unreliableIds = useClientState((c) => c.marks.unreliable);
  const marks = useMemo(() => toMarks(pair, unreliableIds), [pair, unreliableIds]);
  const toggleBaseline = useCallback(
    (result: MarkedResult) => {
      const next = nextBaseline(marks.baseline, result, marks.unreliable);
      if (next.left === marks.baseline.left && next.right === marks.baseline.right) return;
      client.marks.toggleBaseline(result.eye, result.id);
    },
    [marks, client],
  );
  const setUnreliable = useCallback((id: string, unreliable: boolean) => client.marks.setUnreliable(id, unreliable), [client]);
  return { ...marks, toggleBaseline, setUnreliable };
}

export { baselineToggleState };

/** The client settings (panels expanded, analysis pattern) with a writer that persists each change. */
export function useClientSettings(): [ClientSettings, (change: Partial<ClientSettings>) => void] {
  const client = useClient();
  const settings = useClientState((c) => c.marks.settings);
  const update = useCallback((change: Partial<ClientSettings>) => client.marks.updateSettings(change), [client]);
  return [settings, update];
}
