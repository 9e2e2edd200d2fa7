import { Outlet } from "react-router-dom";
import { useAtomValue } from "jotai";
import { clientAtom, clientOverlays } from "../state/lazy-client.ts";
import { Notifications } from "../ui/Notifications.tsx";

/** Above every page: notifications and, while there is a client, its notices and the dialogs that end a session (they
 * load with the client: a visitor on /login has none until the submit, issue 18 §5). */
export function Root() {
  const client = useAtomValue(clientAtom);
  const Overlays = client ? clientOverlays() : null;
  return (
    <>
      <Outlet />
      <Notifications />
      {Overlays && <Overlays />}
    </>
  );
}
