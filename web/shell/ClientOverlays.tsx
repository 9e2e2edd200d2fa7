import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { afterLoginPath } from "./after-login.ts";
import { useLingui } from "@lingui/react/macro";
import { useClient, useClientState } from "../state/client.ts";
import { useNotify } from "../ui/notifications.ts";
import { useNoticeText } from "../i18n/notices.ts";
import { resultRoute } from "../../core/client/live-reducer.ts";
import { Modal } from "../ui/Modal.tsx";
import type { Notice } from "../../core/scheduling/notice.ts";
import { testTypeNames } from "../technician/names.ts";

// What Root shows while there is a client: core/client's notices and navigation, and the dialogs that end a session. It
// loads with the client (web/state/client.ts hands it to Root), so /login's first paint downloads neither.

export default function ClientOverlays() {
  return (
    <>
      <SessionEndDialog />
      <ClientNotices />
    </>
  );
}

/** Shows core/client's notices (e.g. "measurement ready" with a link to the result) and follows its navigation. */
function ClientNotices() {
  const client = useClient();
  const { i18n } = useLingui();
  const notify = useNotify();
  const navigate = useNavigate();
  const text = useNoticeText();
  const showNotice = (notice: Notice) => {
    const action = notice.action;
    const target = !action
      ? null
      : // An Amsler examination's result has its own page, not a perimetry one (core/client resultRoute).
        action.kind === "open-result"
        ? resultRoute(action)
        : action.kind === "open-bin" || action.bin
          ? `/bin${action.bin ? `/${action.bin}` : ""}`
          : null;
    const show = (subject: string | null) =>
      notify({
        kind: notice.kind === "warning" ? "info" : notice.kind,
        text: [text(notice.title) + (subject ? `: ${subject}` : ""), notice.hint && text(notice.hint)].filter(Boolean).join(" "),
        durationMs: notice.durationMs,
        ...(action && target ? { action: { label: text(action.label), run: () => navigate(target) } } : {}),
      });
    if (!notice.subject) return void show(null);
    // "measurement ready" names the patient, the test and the headset (whose result it is, before anyone opens it).
    const { patientId, deviceSn, testName, testType } = notice.subject;
    const device = deviceSn ? client.devices.one(deviceSn)?.device : undefined;
    const test = testName ?? i18n._(testTypeNames[testType]);
    void client.patients
      .load(patientId)
      .then(
        (p) => `${p.name} (${p.uniqueId})`,
        () => null,
      )
      .then((patient) => show([patient, test, device ? device.alias || device.deviceSn : deviceSn].filter(Boolean).join(" · ")));
  };
  // After a login core/client says "home": the page the visitor asked for before the login, if any (after-login.ts).
  const location = useLocation();
  const loginState = useRef<unknown>(null);
  loginState.current = location.pathname === "/login" ? location.state : null;
  // Notices and navigation are events, not state: each is followed once, as it comes.
  const latest = useRef(showNotice);
  latest.current = showNotice;
  useEffect(() => {
    const onNotice = (notice: Notice) => latest.current(notice);
    const onNavigate = ({ to }: { to: "home" | "login" }) => {
      if (to === "home") navigate(afterLoginPath(loginState.current));
      // A logout or an ended session goes to /login with no page to come back to: only a visitor who asked for a
      // page while logged out returns there (the next login may be someone else's).
      else navigate("/login", { replace: true });
    };
    client.events.on("notice", onNotice);
    client.events.on("navigate", onNavigate);
    return () => {
      client.events.off("notice", onNotice);
      client.events.off("navigate", onNavigate);
    };
  }, [client, navigate]);
  return null;
}

function SessionEndDialog() {
  const { t } = useLingui();
  const client = useClient();
  const dialog = useClientState((c) => c.session.state.dialog);
  const end = dialog === "session-expired" ? "expired" : dialog === "another-session-opened" ? "another-session" : null;
  const navigate = useNavigate();
  if (!end) return null;
  const close = () => {
    client.session.dismissDialog();
    navigate(end === "expired" ? "/login?sessionExpired=1" : "/login", { replace: true });
  };
  const title = end === "expired" ? t`Session expired` : t`Another session was opened`;
  const text =
    end === "expired"
      ? t`Your session has expired, please log in again.`
      : t`Your session ended because you logged in from a different web client.`;
  return (
    <Modal
      title={title}
      onClose={close}
      role="alertdialog"
      closeButton={false}
      actions={<button type="button" className="btn btn-primary" onClick={close}>{t`Go to login`}</button>}
    >
      <p>{text}</p>
    </Modal>
  );
}
