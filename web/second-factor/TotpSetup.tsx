import { useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import type { StepRefusal, StepResult } from "../../core/client/second-factor-steps.ts";
import type { TotpEnrolment } from "../../core/model/contract/index.ts";
import { TextInput } from "../ui/TextInput.tsx";
import { QrCode } from "./QrCode.tsx";
import { useRefusalText } from "./refusal-text.ts";

// Setting up two-step sign-in (issue 33 item 2), at sign-in and in the settings: the QR code of the otpauth URI and
// the key to type, the app's first code, then the ten recovery codes, shown this once.

/** The key in groups of four, as authenticator apps show it. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, "$1 ").trim();

export function TotpSetup({
  enrolment,
  confirm,
  onDone,
}: {
  enrolment: TotpEnrolment;
  confirm: (code: string) => Promise<StepResult<readonly string[]>>;
  onDone: () => void;
}) {
  const { t } = useLingui();
  const refusalText = useRefusalText();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<StepRefusal | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<readonly string[] | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === "") return;
    setBusy(true);
    const result = await confirm(code.trim());
    setBusy(false);
    if (result.ok) setRecoveryCodes(result.value);
    else setRefusal(result.refusal);
  };

  if (recoveryCodes)
    return (
      <section className="stack" aria-labelledby="recovery-codes-heading">
        <div className="alert alert-success" role="status">{t`Two-step sign-in is on.`}</div>
        <h2 id="recovery-codes-heading">{t`Your recovery codes`}</h2>
        <p>{t`If you lose your phone, each of these codes signs you in once. Keep them somewhere safe: they are not shown again.`}</p>
        <ol className="recovery-codes" aria-label={t`Recovery codes`}>
          {recoveryCodes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ol>
        <button type="button" className="btn btn-primary" onClick={onDone}>
          {t`I have saved my recovery codes`}
        </button>
      </section>
    );

  return (
    <form className="stack" onSubmit={submit} noValidate aria-busy={busy}>
      <p>{t`Scan this code with an authenticator app on your phone, or type the key into the app.`}</p>
      <div className="totp-qr">
        <QrCode text={enrolment.uri} label={t`QR code for your authenticator app`} />
      </div>
      <p>
        {t`Key:`}{" "}
        <code className="totp-key" data-testid="totp-key">
          {grouped(enrolment.secret)}
        </code>
      </p>
      <TextInput
        label={t`Code from the app`}
        value={code}
        onChange={(v) => {
          setCode(v);
          setRefusal(null);
        }}
        required
        inputMode="numeric"
        autoComplete="one-time-code"
        error={refusal ? refusalText(refusal) : undefined}
      />
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? t`Checking…` : t`Turn on two-step sign-in`}
        </button>
      </div>
    </form>
  );
}
