import { useLayoutEffect, useMemo } from "react";
import { useLingui } from "@lingui/react/macro";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { IntegratedFieldReason } from "../../core/analytics/binocular.ts";
import { binocularScenes } from "../../core/plots/binocular.ts";
import type { Scene } from "../../core/plots/scene.ts";
import { Zoom, useZoomView } from "../ui/Zoom.tsx";
import { expectDraw } from "./draw-timing.ts";
import { fitScale, plotScale } from "./plot-fit.ts";
import { browserTimeZone } from "./print-page.ts";
import { FIELD_SIZE } from "./ResultDisplay.tsx";
import type { WithResult } from "./result-model.ts";
import { SceneView } from "./SceneView.tsx";
import { binocularVisit } from "./binocular-visit.ts";

// The binocular integrated visual field of the shown result's visit (issue 30; core/analytics/binocular.ts): the right
// eye, the left eye and the integrated field side by side with the disability score, or why there is none.

const reasons: Record<IntegratedFieldReason, MessageDescriptor> = {
  eyes: msg`Not applicable: it needs one right-eye and one left-eye result.`,
  "not-same-day": msg`Not applicable: the other eye was not tested on the same day.`,
  "different-patterns": msg`Not applicable: the two eyes were tested on different patterns that day.`,
  pattern: msg`Not applicable: drawn for 24-2, 30-2 and 10-2, whose locations pair up across the eyes.`,
  screening: msg`Not applicable: a screening records seen or not seen, not sensitivities.`,
  incomplete: msg`Not applicable: a result of this visit is incomplete.`,
};

/** The three plots, fitted to the zoom wrapper's width like the result's own plots. */
function Plots({ scenes }: { scenes: readonly Scene[] }) {
  const view = useZoomView();
  const measured = view?.measured ?? true;
  useLayoutEffect(() => (measured ? undefined : expectDraw()), [measured]);
  if (!measured) return null;
  const scaleOf = (s: Scene) =>
    !view ? 1 : view.width === null ? view.zoom : plotScale(fitScale(view.width, scenes.length), s.width, view.width, view.zoom);
  return (
    <div className="plot-grid">
      {scenes.map((s) => (
        <SceneView key={s.plot} scene={s} scale={scaleOf(s)} />
      ))}
    </div>
  );
}

export function BinocularField({ current, results }: { current: WithResult; results: readonly WithResult[] }) {
  const { t, i18n } = useLingui();
  const visit = useMemo(() => binocularVisit(current, results, browserTimeZone()), [current, results]);
  const scenes = useMemo(() => {
    if (!visit?.field.applicable || !visit.right || !visit.left) return null;
    const s = binocularScenes(visit.right.result, visit.left.result, visit.field, { width: FIELD_SIZE, height: FIELD_SIZE * 1.15 });
    return [s.right, s.left, s.integrated];
  }, [visit]);
  if (!visit) return null;
  const headingId = `binocular-${current.id}`;
  const field = visit.field;
  const { score, max, dense, relative } = field.applicable ? field.disability : { score: 0, max: 0, dense: 0, relative: 0 };
  return (
    <section className="card stack" aria-labelledby={headingId} data-testid="binocular-field">
      <h3 id={headingId}>{t`Binocular integrated field`}</h3>
      {!field.applicable ? (
        <p className="muted" data-testid="binocular-not-applicable">
          {i18n._(reasons[field.reason])}
        </p>
      ) : (
        <>
          <p className="muted">
            {t`What the patient sees with both eyes open: at each point the better eye's sensitivity (best location; Nelson-Quigg 2000, Crabb and Viswanathan 2005).`}
          </p>
          <p data-testid="binocular-score">
            <strong>{t`Disability score: ${score} of ${max}`}</strong>
            {" · "}
            {t`points below 10 dB: ${dense}; below 20 dB: ${relative}`}
          </p>
          {scenes && (
            <Zoom label={t`Binocular plots`}>
              <Plots scenes={scenes} />
            </Zoom>
          )}
        </>
      )}
    </section>
  );
}
