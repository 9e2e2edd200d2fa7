import { useLingui } from "@lingui/react/macro";
import { patternLabel } from "../../../core/model/enums.ts";
import type { PerimetryTest } from "../../results/result-model.ts";
import { eyeNames, strategyNames } from "../../i18n/names.ts";
import { useSourceNames } from "../../results/result-sources.ts";

const dB = (v: number | null | undefined) => (v === null || v === undefined ? "–" : `${v.toFixed(2)} dB`);

/** One line per measurement (or perimetry examination): eye, pattern, strategy, and the global indices when a result exists. */
export function MeasurementSummary({ m }: { m: Pick<PerimetryTest, "eye" | "pattern" | "strategy" | "result"> }) {
  const { t, i18n } = useLingui();
  const names = useSourceNames();
  return (
    <span>
      <strong>{i18n._(eyeNames[m.eye])}</strong> · {patternLabel[m.pattern]} ·{" "}
      {m.result ? names.resultStrategy(m.result) : i18n._(strategyNames[m.strategy])}
      {m.result ? (
        <span className="num muted">
          {" "}
          · {t`MS`} {dB(Math.max(0, m.result.meanSensitivity))} · {t`MD`} {dB(m.result.meanDefect)}
        </span>
      ) : (
        <span className="muted"> · {t`without result`}</span>
      )}
    </span>
  );
}
