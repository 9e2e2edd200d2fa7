import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useLocation } from "react-router-dom";
import { useAtomValue } from "jotai";
import { useLingui } from "@lingui/react/macro";
import { languageAtom } from "../../state/language.ts";
import { useTokenPayload } from "../../state/session.ts";
import { useRead } from "../../state/use-read.ts";
import { infoEmail, supportEmail } from "./contacts.ts";
import { pageForSupport, supportMailto } from "./support-mail.ts";

/**
 * "plus a support widget" (accounts seed §1): a floating help button on every page after login. It opens a panel with
 * the support and info addresses and a message form that composes the support e-mail in the user's mail program.
 */
export function SupportWidget() {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div className="support-widget">
      {open && <SupportPanel onClose={close} />}
      <button
        ref={button}
        type="button"
        className="support-fab"
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => (open ? close() : setOpen(true))}
      >
        <span aria-hidden="true" className="support-fab-mark">
          ?
        </span>
        <span className="support-fab-label">{t`Help`}</span>
      </button>
    </div>
  );
}

function SupportPanel({ onClose }: { onClose: () => void }) {
  const { t } = useLingui();
  const titleId = useId();
  const version = useRead("version", {});
  const role = useTokenPayload()?.role ?? "";
  const language = useAtomValue(languageAtom);
  const { pathname } = useLocation();
  const [subject, setSubject] = useState("");
  const [message, setMessage] = useState("");
  const [details, setDetails] = useState(true);
  const [tried, setTried] = useState(false);
  const [composed, setComposed] = useState<string | null>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    panel.current?.querySelector<HTMLElement>("input, textarea")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);

  const missingSubject = tried && subject.trim() === "";
  const missingMessage = tried && message.trim() === "";
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (subject.trim() === "" || message.trim() === "") return;
    const href = supportMailto({
      to: supportEmail,
      subject,
      message,
      details: details ? { version: version.data?.version ?? "?", page: pageForSupport(pathname), role, language } : null,
    });
    setComposed(href);
    window.location.assign(href);
  };
  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setComposed(null);
    };

  return (
    <div ref={panel} className="support-panel" role="dialog" aria-labelledby={titleId} data-testid="support-widget">
      <div className="row">
        <h2 id={titleId} className="spacer">{t`Contact support`}</h2>
        <button type="button" className="btn btn-icon" aria-label={t`Close`} onClick={onClose}>
          ×
        </button>
      </div>
      <p className="support-addresses">
        {t`Questions and problems:`} <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
        <br />
        {t`Product information:`} <a href={`mailto:${infoEmail}`}>{infoEmail}</a>
      </p>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${titleId}-subject`}>
            {t`Subject`}
            <span className="required" aria-hidden="true">
              *
            </span>
          </label>
          <input
            id={`${titleId}-subject`}
            className="input"
            value={subject}
            maxLength={120}
            required
            aria-invalid={missingSubject || undefined}
            aria-describedby={missingSubject ? `${titleId}-subject-error` : undefined}
            onChange={(e) => edit(setSubject)(e.target.value)}
          />
          {missingSubject && <span id={`${titleId}-subject-error`} className="field-error">{t`This field is required.`}</span>}
        </div>
        <div className="field">
          <label htmlFor={`${titleId}-message`}>
            {t`Message`}
            <span className="required" aria-hidden="true">
              *
            </span>
          </label>
          <textarea
            id={`${titleId}-message`}
            className="input"
            value={message}
            maxLength={4000}
            required
            aria-invalid={missingMessage || undefined}
            aria-describedby={[`${titleId}-privacy`, missingMessage && `${titleId}-message-error`].filter(Boolean).join(" ")}
            onChange={(e) => edit(setMessage)(e.target.value)}
          />
          {missingMessage && <span id={`${titleId}-message-error`} className="field-error">{t`This field is required.`}</span>}
          <span
            id={`${titleId}-privacy`}
            className="field-hint"
          >{t`Do not write patient names or other patient data in the message.`}</span>
        </div>
        <label className="check">
          <input type="checkbox" checked={details} onChange={(e) => edit(setDetails)(e.target.checked)} />
          {t`Add technical details (version, page, role, language)`}
        </label>
        <div className="row support-actions">
          <button type="submit" className="btn btn-primary">{t`Write the e-mail`}</button>
        </div>
      </form>
      {composed && (
        <p role="status" className="support-composed">
          {t`Your e-mail program opens with the message; send it from there.`}{" "}
          <a href={composed} data-testid="support-mailto">{t`Open the e-mail again`}</a>
        </p>
      )}
    </div>
  );
}
