import { Outlet, useNavigate } from "react-router-dom";
import { useAtom } from "jotai";
import { useLingui } from "@lingui/react/macro";
import { sessionEndAtom } from "../state/session.ts";
import { Modal } from "../ui/Modal.tsx";
import { Notifications } from "../ui/Notifications.tsx";

/** Above every page: notifications and the dialogs that end a session. */
export function Root() {
  return (
    <>
      <Outlet />
      <Notifications />
      <SessionEndDialog />
    </>
  );
}

function SessionEndDialog() {
  const { t } = useLingui();
  const [end, setEnd] = useAtom(sessionEndAtom);
  const navigate = useNavigate();
  if (!end) return null;
  const close = () => {
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
