import { useMemo } from "react";
import { useLingui } from "@lingui/react/macro";
import { resultDevice, resultStrategy, type ResultDevice, type ResultStrategy } from "../../core/analytics/series-sources.ts";
import { resolveText } from "../../core/plots/message.ts";
import { deviceText, sourceLabel, strategyText } from "../../core/plots/source-names.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";
import { plotTranslate } from "./plot-messages.ts";

// A result's source in the interface language (issue 29): the same names the chart and the printout use
// (core/plots/source-names.ts), so "Isopter headset" and "SITA Standard" read alike on screen and paper.

export type SourcedStored = Pick<MeasurementResult, "strategy" | "deviceAlias" | "source">;

export interface SourceNames {
  /** "Isopter headset", or "Carl Zeiss Meditec HFA3 860". */
  device(d: ResultDevice): string;
  /** Isopter's strategy name, or the imported file's ("SITA Standard"). */
  strategy(s: ResultStrategy): string;
  /** "Isopter headset · Dynamic", "Carl Zeiss Meditec HFA3 860 · SITA Standard". */
  label(source: { device: ResultDevice; strategy: ResultStrategy }): string;
  /** A result's strategy as the results list and the result page name it. */
  resultStrategy(r: SourcedStored): string;
  /** A result's source for the results list: "Isopter headset (VR-0001)", "Imported: Carl Zeiss Meditec HFA3 860". */
  resultSource(r: SourcedStored): string;
}

export function useSourceNames(): SourceNames {
  const { t, i18n } = useLingui();
  // Not SceneView's usePlotTranslate: naming a source needs no plot (nor Konva's chunk).
  const translate = useMemo(() => plotTranslate(i18n), [i18n, i18n.locale]);
  const device = (d: ResultDevice) => resolveText(deviceText(d), translate);
  const strategy = (s: ResultStrategy) => resolveText(strategyText(s), translate);
  return {
    device,
    strategy,
    label: (source) => resolveText(sourceLabel(source), translate),
    resultStrategy: (r) => strategy(resultStrategy(r)),
    resultSource: (r) => {
      const d = resultDevice(r);
      const name = device(d);
      if (d.kind === "imported") return t`Imported: ${name}`;
      const alias = r.deviceAlias;
      return alias ? t`${name} (${alias})` : name;
    },
  };
}
