import { useEffect } from "react";
import { Outlet, useNavigate } from "react-router-dom";
import { useAtom, useAtomValue } from "jotai";
import { useLingui } from "@lingui/react/macro";
import { sessionEndAtom } from "../state/session.ts";
import { clientNavigateAtom, clientNoticeAtom, useClient } from "../state/client.ts";
import { useNotify } from "../ui/notifications.ts";
import { useNoticeText } from "../i18n/notices.ts";
import { resultRoute } from "../../core/client/live-reducer.ts";
import { Modal } from "../ui/Modal.tsx";
import { Notifications } from "../ui/Notifications.tsx";

/** Above every page: notifications and the dialogs that end a session. */
export function Root() {
  return (
    <>
      <Outlet />
      <Notifications />
      <SessionEndDialog />
      <ClientNotices />
    </>
  );
}

/** Shows core/client's notices (e.g. "measurement ready" with a link to the result) and follows its navigation. */
function ClientNotices() {
  const notice = useAtomValue(clientNoticeAtom);
  const go = useAtomValue(clientNavigateAtom);
  const notify = useNotify();
  const navigate = useNavigate();
  const text = useNoticeText();
  useEffect(() => {
    if (!notice) return;
    const action = notice.action;
    const target = !action ? null
      // An Amsler examination's result has its own page, not a perimetry one (core/client resultRoute).
      : action.kind === "open-result" ? resultRoute(action)
      : action.kind === "open-bin" ? "/bin" : null;
    notify({
      kind: notice.kind === "warning" ? "info" : notice.kind,
      text: [text(notice.title), notice.hint && text(notice.hint)].filter(Boolean).join(" "),
      durationMs: notice.durationMs,
      ...(action && target ? { action: { label: text(action.label), run: () => navigate(target) } } : {}),
    });
  }, [notice, notify, navigate, text]);
  useEffect(() => {
    if (go?.to === "home") navigate("/home");
  }, [go, navigate]);
  return null;
}

function SessionEndDialog() {
  const { t } = useLingui();
  const [end, setEnd] = useAtom(sessionEndAtom);
  const client = useClient();
  const navigate = useNavigate();
  if (!end) return null;
  const close = () => {
    client.dismissSessionDialog();
    setEnd(null);
    navigate(end === "expired" ? "/login?sessionExpired=1" : "/login", { replace: true });
  };
  const title = end === "expired" ? t`Session expired` : t`Another session was opened`;
  const text = end === "expired"
    ? t`Your session has expired, please log in again.`
    : t`Your session ended because you logged in from a different web client.`;
  return (
    <Modal title={title} onClose={close} role="alertdialog" closeButton={false}
      actions={<button type="button" className="btn btn-primary" onClick={close}>{t`Go to login`}</button>}>
      <p>{text}</p>
    </Modal>
  );
}
