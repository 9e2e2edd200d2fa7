import { useLingui } from "@lingui/react/macro";
import type { StepRefusal } from "../../core/client/second-factor-steps.ts";

/** Why a code was refused, in the user's words (core/client/second-factor-steps.ts). */
export function useRefusalText(): (refusal: StepRefusal) => string {
  const { t } = useLingui();
  return (refusal) => {
    switch (refusal) {
      case "wrong":
        return t`That code is not right. Enter the newest code from your app.`;
      case "too-many":
        return t`Too many wrong codes. Wait a minute, then try again.`;
      case "expired":
        return t`The sign-in took too long. Log in again.`;
      case "server":
        return t`Something went wrong. Try again in a moment.`;
    }
  };
}
