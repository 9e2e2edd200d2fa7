import { useState, type ReactNode } from "react";
import { useLingui } from "@lingui/react/macro";

export const zoomSteps = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

/** Zoom a plot or document in steps; the content keeps its layout and scrolls inside the frame. */
export function Zoom({ label, children }: { label: string; children: ReactNode }) {
  const { t } = useLingui();
  const [step, setStep] = useState(2);
  const scale = zoomSteps[step]!;
  return (
    <section className="zoom" aria-label={label}>
      <div className="zoom-controls">
        <button type="button" className="btn btn-icon" aria-label={t`Zoom out`} disabled={step === 0} onClick={() => setStep(step - 1)}>
          −
        </button>
        <button type="button" className="btn" onClick={() => setStep(2)}>
          <span className="visually-hidden">{t`Reset zoom`} </span>
          {Math.round(scale * 100)}%
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
      <div className="zoom-content" style={{ transform: `scale(${scale})` }} data-testid="zoom-content">
        {children}
      </div>
    </section>
  );
}
