import type { ResultDevice, ResultStrategy } from "../analytics/series-sources.ts";
import { strategyMessage } from "./code-names.ts";
import { message, type Message } from "./scene.ts";

// A result's source as the chart, the printout and the screens name it (issue 29): "Isopter headset", or the imported
// perimeter's manufacturer and model as its file gave them (a name, not translated), and its strategy: Isopter's by
// code, an imported one as the file names it ("SITA Standard").

export const isopterHeadset: Message = message("plots.source.isopter", "Isopter headset");

/** The device: "Isopter headset", or the perimeter ("Carl Zeiss Meditec HFA3 860"; `short`: its model, "HFA3 860"). */
export const deviceText = (d: ResultDevice, short = false): Message | string =>
  d.kind === "isopter" ? isopterHeadset : ((short ? d.shortName : d.name) ?? "");

/** The strategy: the file's name for it, else Isopter's name of the code. */
export const strategyText = (s: ResultStrategy): Message | string => s.name ?? strategyMessage(s.code);

/** "HFA3 860 · SITA Standard", "Isopter headset · Dynamic": a device and its strategy in one label. */
export const sourceLabel = (source: { readonly device: ResultDevice; readonly strategy: ResultStrategy }, short = false): Message =>
  message("plots.source.label", "{device} · {strategy}", {
    device: deviceText(source.device, short),
    strategy: strategyText(source.strategy),
  });
