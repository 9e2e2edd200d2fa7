import { progressDisplay } from "./progress.ts";

export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  const { label: shown, fill } = progressDisplay(percent);
  return (
    <div className="progress">
      <div className="progress-track" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={shown}>
        <div className="progress-fill" data-testid="progress-fill" style={{ width: `${fill}%` }} />
      </div>
      <span className="progress-label" aria-hidden="true">
        {shown}%
      </span>
    </div>
  );
}
