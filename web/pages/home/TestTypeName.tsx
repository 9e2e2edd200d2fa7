import { useLingui } from "@lingui/react/macro";
import type { TestType } from "../../../core/model/enums.ts";

export function TestTypeName({ type }: { type: TestType }) {
  const { t } = useLingui();
  const names: Record<TestType, string> = {
    perimetry: t`Perimetry`,
    amsler: t`Amsler grid`,
    acuity: t`Visual acuity`,
    "color-blindness": t`Colour vision`,
  };
  return <>{names[type]}</>;
}
