import { ApiError } from "../model/contract/errors.ts";
import type { SecondFactorStep, TotpEnrolment } from "../model/contract/index.ts";
import type { Api } from "../ports.ts";

// The second step of a login (issue 33 item 2; contract/second-factor.ts), part of the session facet. A login whose
// password was right may answer a challenge instead of a session: "verify" (a code of the app, or a recovery code)
// or "enrol" (the organisation requires a second factor the account lacks: a new secret, its first code, the ten
// recovery codes shown once, then the session). The challenge is kept here, never in storage.

/** Why a code or step was refused: a wrong code, too many wrong codes (wait a minute), the sign-in ran out (log in
 * again), or the server failed. */
export type StepRefusal = "wrong" | "too-many" | "expired" | "server";
export type StepResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly refusal: StepRefusal };

export interface SecondFactorSteps {
  /** The step the login waits for, or null. */
  readonly pending: SecondFactorStep | null;
  /** verify: a code or a recovery code; signs in when right. */
  verify(code: string): Promise<StepResult<null>>;
  /** enrol: a new secret for the authenticator app. */
  enrol(): Promise<StepResult<TotpEnrolment>>;
  /** enrol: the first code; answers the recovery codes and keeps the session until `finish` (the codes show first). */
  confirm(code: string): Promise<StepResult<readonly string[]>>;
  /** enrol: the recovery codes have been shown; the session starts. */
  finish(): void;
  /** Back to the password. */
  cancel(): void;
}

export const refusalOf = (e: unknown): StepRefusal => {
  if (!(e instanceof ApiError)) return "server";
  if (e.isType("invalid_credentials")) return "wrong";
  if (e.isType("rate_limited")) return "too-many";
  if (e.isType("token_expired", "token_verification_error", "conflict")) return "expired";
  return "server";
};

/** `enter` starts the session with an access token (the session facet's own path after a login). */
export function createSecondFactorSteps(api: Api, changed: () => void, enter: (accessToken: string) => void) {
  let pending: SecondFactorStep | null = null;
  let challenge = "";
  let heldToken: string | null = null;
  const reset = () => {
    pending = null;
    challenge = "";
    heldToken = null;
    changed();
  };
  const attempt = async <T>(work: () => Promise<T>): Promise<StepResult<T>> => {
    try {
      return { ok: true, value: await work() };
    } catch (e) {
      const refusal = refusalOf(e);
      if (refusal === "expired") reset();
      return { ok: false, refusal };
    }
  };
  const steps: SecondFactorSteps & { begin(step: SecondFactorStep, challenge: string): void } = {
    get pending() {
      return pending;
    },
    begin(step, token) {
      pending = step;
      challenge = token;
      heldToken = null;
      changed();
    },
    verify: (code) =>
      attempt(async () => {
        const { accessToken } = await api.call("secondFactor.signIn", { body: { challenge, code } });
        reset();
        enter(accessToken);
        return null;
      }),
    enrol: () => attempt(() => api.call("secondFactor.signInEnrol", { body: { challenge } })),
    confirm: (code) =>
      attempt(async () => {
        const answer = await api.call("secondFactor.signInConfirm", { body: { challenge, code } });
        heldToken = answer.accessToken;
        return answer.recoveryCodes;
      }),
    finish() {
      const token = heldToken;
      reset();
      if (token) enter(token);
    },
    cancel: reset,
  };
  return steps;
}
