import { createContext, useContext, useMemo, useState, type ReactNode } from "react";
import { useLingui } from "@lingui/react/macro";
import { useElementWidth } from "./use-element-width.ts";
import "./Zoom.css";

// The zoom wrapper (scheduling seed §2 "Shared interface pieces"). It measures the width its content has and offers
// zoom steps; what it wraps reads both (useZoomView) and draws itself at that size: a plot scales its Konva stage,
// so its texts and lines are drawn at the zoomed size, crisp, never a stretched bitmap. 100 % is the content fitted to
// the space it has; zoomed in, the content scrolls inside the frame.

export const zoomSteps = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;
const FIT_STEP = 2;

export interface ZoomView {
  /** The width the content has (CSS pixels), following resizes of the window and the layout; null without layout. */
  readonly width: number | null;
  /** False only in the first render, before the wrapper has measured (in a layout effect, so before the first paint):
   * content that draws at the width waits for it instead of drawing twice. */
  readonly measured: boolean;
  /** The chosen zoom step: 1 is "fitted to the width". */
  readonly zoom: number;
}

const ZoomContext = createContext<ZoomView | null>(null);

/** The zoom wrapper around this component; null outside one. */
export const useZoomView = (): ZoomView | null => useContext(ZoomContext);

export function Zoom({ label, children }: { label: string; children: ReactNode }) {
  const { t } = useLingui();
  const [step, setStep] = useState(FIT_STEP);
  const [measure, width] = useElementWidth<HTMLDivElement>();
  const zoom = zoomSteps[step]!;
  const view = useMemo(() => ({ width: width ?? null, zoom, measured: width !== undefined }), [width, zoom]);
  return (
    <section className="zoom-frame" aria-label={label}>
      <div className="zoom-bar">
        <button type="button" className="btn btn-icon" aria-label={t`Zoom out`} disabled={step === 0} onClick={() => setStep(step - 1)}>
          −
        </button>
        <button type="button" className="btn" onClick={() => setStep(FIT_STEP)} data-testid="zoom-reset">
          <span className="visually-hidden">{t`Reset zoom`} </span>
          {Math.round(zoom * 100)}%
        </button>
        <button
          type="button"
          className="btn btn-icon"
          aria-label={t`Zoom in`}
          disabled={step === zoomSteps.length - 1}
          onClick={() => setStep(step + 1)}
        >
          +
        </button>
      </div>
      {/* Scrolls when zoomed in beyond the width; focusable so a keyboard can scroll it (axe scrollable-region-focusable). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable for keyboard scrolling */}
      <div className="zoom-view" tabIndex={0} data-testid="zoom-content" data-zoom={zoom}>
        <div ref={measure} className="zoom-measure" />
        <ZoomContext.Provider value={view}>{children}</ZoomContext.Provider>
      </div>
    </section>
  );
}
