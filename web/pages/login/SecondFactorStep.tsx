import { useCallback, useEffect, useState, useSyncExternalStore, type FormEvent } from "react";
import { useAtomValue } from "jotai";
import { useLingui } from "@lingui/react/macro";
import type { SessionFacet } from "../../../core/client/session-facet.ts";
import type { StepRefusal } from "../../../core/client/second-factor-steps.ts";
import type { TotpEnrolment } from "../../../core/model/contract/index.ts";
import { clientAtom } from "../../state/client-atom.ts";
import { TextInput } from "../../ui/TextInput.tsx";
import { TotpSetup } from "../../second-factor/TotpSetup.tsx";
import { useRefusalText } from "../../second-factor/refusal-text.ts";

// The login's second step (issue 33 item 2), shown in place of the password form while core/client's
// session.secondFactor waits: a code of the app or a recovery code ("verify"), or setting up two-step sign-in when the
// organisation requires it ("enrol"). Loaded only then (the login page's first paint carries none of it); the full
// catalog is there, loaded with the client by the login's submit.

export default function SecondFactorStep({ onDone, onClosed }: { onDone: () => void; onClosed: () => void }) {
  const { t } = useLingui();
  const client = useAtomValue(clientAtom);
  const subscribe = useCallback(
    (onChange: () => void) => {
      client?.events.on("change", onChange);
      return () => client?.events.off("change", onChange);
    },
    [client],
  );
  const pending = useSyncExternalStore(subscribe, () => client?.session.secondFactor.pending ?? null);
  const back = () => {
    client?.session.secondFactor.cancel();
    onClosed();
  };
  if (!client || pending === null)
    // The challenge ran out (or the account changed meanwhile): the password again.
    return (
      <div className="stack">
        <div className="alert alert-warning" role="alert">{t`The sign-in took too long. Log in again.`}</div>
        <button type="button" className="btn btn-primary" onClick={back}>
          {t`Back to the password`}
        </button>
      </div>
    );
  const session = client.session;
  return (
    <div className="stack">
      {pending === "enrol" ? <Enrol session={session} onDone={onDone} /> : <Verify session={session} onDone={onDone} />}
      <button type="button" className="btn-link" onClick={back}>
        {t`Back to the password`}
      </button>
    </div>
  );
}

function Verify({ session, onDone }: { session: SessionFacet; onDone: () => void }) {
  const { t } = useLingui();
  const refusalText = useRefusalText();
  const [code, setCode] = useState("");
  const [recovery, setRecovery] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<StepRefusal | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === "") return;
    setBusy(true);
    const result = await session.secondFactor.verify(code.trim());
    setBusy(false);
    if (result.ok) onDone();
    else setRefusal(result.refusal);
  };

  return (
    <form className="stack" onSubmit={submit} noValidate aria-busy={busy}>
      <h2>{t`Two-step sign-in`}</h2>
      <p>
        {recovery
          ? t`Enter one of the recovery codes you saved. Each code works once.`
          : t`Open the authenticator app on your phone and enter the six-digit code for Isopter.`}
      </p>
      <TextInput
        key={recovery ? "recovery" : "code"}
        label={recovery ? t`Recovery code` : t`Code`}
        value={code}
        onChange={(v) => {
          setCode(v);
          setRefusal(null);
        }}
        required
        autoFocus
        inputMode={recovery ? "text" : "numeric"}
        autoComplete={recovery ? "off" : "one-time-code"}
        error={refusal ? refusalText(refusal) : undefined}
      />
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? t`Checking…` : t`Verify`}
        </button>
        <span className="spacer" />
        <button
          type="button"
          className="btn-link"
          onClick={() => {
            setRecovery((r) => !r);
            setCode("");
            setRefusal(null);
          }}
        >
          {recovery ? t`Use a code from the app` : t`Use a recovery code`}
        </button>
      </div>
    </form>
  );
}

function Enrol({ session, onDone }: { session: SessionFacet; onDone: () => void }) {
  const { t } = useLingui();
  const refusalText = useRefusalText();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [refusal, setRefusal] = useState<StepRefusal | null>(null);
  useEffect(() => {
    let live = true;
    void session.secondFactor.enrol().then((result) => {
      if (!live) return;
      if (result.ok) setEnrolment(result.value);
      else setRefusal(result.refusal);
    });
    return () => {
      live = false;
    };
  }, [session]);

  return (
    <div className="stack">
      <h2>{t`Set up two-step sign-in`}</h2>
      <p>{t`Your organisation asks for a code from your phone at each sign-in, besides your password.`}</p>
      {refusal && (
        <div className="alert alert-error" role="alert">
          {refusalText(refusal)}
        </div>
      )}
      {enrolment ? (
        <TotpSetup
          enrolment={enrolment}
          confirm={(code) => session.secondFactor.confirm(code)}
          onDone={() => {
            session.secondFactor.finish();
            onDone();
          }}
        />
      ) : (
        !refusal && <p className="muted">{t`Preparing…`}</p>
      )}
    </div>
  );
}
