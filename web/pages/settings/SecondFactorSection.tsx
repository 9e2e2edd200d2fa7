import { useCallback, useEffect, useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import { refusalOf, type StepResult } from "../../../core/client/second-factor-steps.ts";
import { isApiError, type SecondFactorStatus, type TotpEnrolment } from "../../../core/model/contract/index.ts";
import { useApi } from "../../state/client.ts";
import { useTokenPayload } from "../../state/session.ts";
import { TextInput } from "../../ui/TextInput.tsx";
import { Toggle } from "../../ui/Toggle.tsx";
import { TotpSetup } from "../../second-factor/TotpSetup.tsx";

// Two-step sign-in in the settings (issue 33 item 2): set it up (QR code, first code, recovery codes shown once), see
// how many recovery codes are left, turn it off with the password (not while the organisation requires it); managers
// and admins require it of everyone in the organisation (people without it set it up at their next sign-in).

type Off = "idle" | "busy" | "wrong-password" | "required" | "error";

export function SecondFactorSection() {
  const { t } = useLingui();
  const api = useApi();
  const role = useTokenPayload()?.role;
  const [status, setStatus] = useState<SecondFactorStatus | null>(null);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [password, setPassword] = useState("");
  const [off, setOff] = useState<Off>("idle");
  const [failed, setFailed] = useState(false);
  const [unread, setUnread] = useState(false);

  const reload = useCallback(async () => {
    try {
      setStatus(await api.call("secondFactor.status", {}));
      setUnread(false);
    } catch {
      setUnread(true);
    }
  }, [api]);
  useEffect(() => void reload(), [reload]);

  const begin = async () => {
    setFailed(false);
    try {
      setEnrolment(await api.call("secondFactor.enrol", {}));
    } catch {
      setFailed(true);
    }
  };
  const confirm = async (code: string): Promise<StepResult<readonly string[]>> => {
    try {
      return { ok: true, value: (await api.call("secondFactor.confirm", { body: { code } })).recoveryCodes };
    } catch (e) {
      return { ok: false, refusal: refusalOf(e) };
    }
  };
  const turnOff = async (event: FormEvent) => {
    event.preventDefault();
    setOff("busy");
    try {
      await api.call("secondFactor.disable", { body: { password } });
      setOff("idle");
      setPassword("");
      await reload();
    } catch (e) {
      setOff(
        isApiError(e) && e.isType("invalid_credentials") ? "wrong-password" : isApiError(e) && e.isType("forbidden") ? "required" : "error",
      );
    }
  };
  const require = async (required: boolean) => {
    setFailed(false);
    try {
      await api.call("secondFactor.require", { body: { required } });
      await reload();
    } catch {
      setFailed(true);
    }
  };

  return (
    <section className="card stack" aria-labelledby="second-factor-heading" style={{ maxWidth: 520 }}>
      <h2 id="second-factor-heading">{t`Two-step sign-in`}</h2>
      <p className="muted">{t`A code from an app on your phone, asked for at each sign-in besides your password.`}</p>
      {failed && <div className="alert alert-error" role="alert">{t`Two-step sign-in could not be changed. Try again later.`}</div>}
      {unread && <div className="alert alert-error" role="alert">{t`Two-step sign-in cannot be shown just now. Try again later.`}</div>}
      {status === null ? null : enrolment ? (
        <TotpSetup
          enrolment={enrolment}
          confirm={confirm}
          onDone={() => {
            setEnrolment(null);
            void reload();
          }}
        />
      ) : status.enrolled ? (
        <>
          <p role="status">{t`Two-step sign-in is on. Recovery codes left: ${status.recoveryCodesLeft}`}</p>
          {status.required ? (
            <p>{t`Your organisation requires two-step sign-in, so it cannot be turned off.`}</p>
          ) : (
            <form onSubmit={turnOff} noValidate>
              <TextInput
                label={t`Password`}
                type="password"
                value={password}
                onChange={(v) => {
                  setPassword(v);
                  setOff("idle");
                }}
                autoComplete="current-password"
                error={
                  off === "wrong-password"
                    ? t`The password is not correct.`
                    : off === "error"
                      ? t`Something went wrong. Try again in a moment.`
                      : undefined
                }
              />
              <button type="submit" className="btn" disabled={password === "" || off === "busy"}>
                {t`Turn off two-step sign-in`}
              </button>
            </form>
          )}
        </>
      ) : (
        <div className="row">
          <button type="button" className="btn btn-primary" onClick={begin}>
            {t`Set up two-step sign-in`}
          </button>
        </div>
      )}
      {status && (role === "manager" || role === "admin") && (
        <div className="stack">
          <Toggle
            label={t`Require two-step sign-in for everyone in this organisation`}
            checked={status.required}
            onChange={(required) => void require(required)}
          />
          <p className="muted">{t`People who have not set it up are asked to at their next sign-in.`}</p>
        </div>
      )}
    </section>
  );
}
