import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";

// core/plots/binocular.ts's texts as Lingui messages (plot-messages.ts spreads them into its table), so the integrated
// field and its legend speak the interface language on screen and on paper.
export const binocularPlotMessages: Readonly<Record<string, MessageDescriptor>> = {
  "plots.binocular.dense": msg({ message: "< {db} dB ({count})" }),
  "plots.binocular.fromLeft": msg`from the left eye`,
  "plots.binocular.fromRight": msg`from the right eye`,
  "plots.binocular.left": msg`Left eye (dB)`,
  "plots.binocular.relative": msg({ message: "{from}-{to} dB ({count})" }),
  "plots.binocular.right": msg`Right eye (dB)`,
  "plots.binocular.score": msg({ message: "Disability score {score} of {max}" }),
  "plots.binocular.title": msg`Integrated field, both eyes (dB)`,
};
