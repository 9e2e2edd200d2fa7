import { useLingui } from "@lingui/react/macro";
import type { TestType } from "../../../core/model/enums.ts";

// One small figure per test type, named for screen readers (the list shows a template's tests as icons).
const paths: Record<TestType, string> = {
  // Concentric field rings.
  perimetry: "M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zm0 4a5 5 0 1 0 0 10a5 5 0 1 0 0-10zm0 4a1 1 0 1 0 0 2a1 1 0 1 0 0-2z",
  // A grid.
  amsler: "M3 3h18v18H3zM9 3v18M15 3v18M3 9h18M3 15h18",
  // An E chart letter.
  acuity: "M6 4h12M6 4v16M6 12h9M6 20h12",
  // Overlapping circles.
  "color-blindness": "M9 5a5 5 0 1 0 0 10a5 5 0 1 0 0-10zM15 9a5 5 0 1 0 0 10a5 5 0 1 0 0-10z",
};

export function useTestTypeNames(): Record<TestType, string> {
  const { t } = useLingui();
  return { perimetry: t`Perimetry`, amsler: t`Amsler grid`, acuity: t`Visual acuity`, "color-blindness": t`Colour vision` };
}

export function TestTypeIcon({ type, label }: { type: TestType; label: string }) {
  return (
    <svg
      role="img"
      aria-label={label}
      className="test-type-icon"
      data-type={type}
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
    >
      <title>{label}</title>
      <path d={paths[type]} />
    </svg>
  );
}
