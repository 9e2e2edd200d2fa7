import { useEffect, useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { useAtomValue } from "jotai";
import { useLingui } from "@lingui/react/macro";
import { CacheKey } from "../../../core/client/cache-keys.ts";
import { isApiError } from "../../../core/model/contract/errors.ts";
import { devicesState } from "../../state/devices.ts";
import type { Client } from "../../../core/client/client.ts";
import { useClient, useClientState } from "../../state/client.ts";
import { measurementFormAtom, wizardAtom } from "../../state/technician.ts";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { Lanes } from "../../technician/Lanes.tsx";
import { MeasurementFormDialog } from "../../technician/MeasurementFormDialog.tsx";
import { ExaminationWizard } from "../../technician/ExaminationWizard.tsx";
import { TrashDialog } from "../../technician/TrashDialog.tsx";
import { MoveDialogs } from "../../technician/MoveDialogs.tsx";
import { socketStateNames } from "../../technician/names.ts";
import "../../technician/technician.css";

/** "card blink 1.5 s" (scheduling seed §9). */
export const CARD_BLINK_MS = 1_500;

/** /technician: a lane per device with its queue, live state and controls (scheduling seed §2 "Technician view"). */
export default function TechnicianPage() {
  const { t, i18n } = useLingui();
  const client = useClient();
  // The page follows what it shows itself (loading, failure, none, the socket's state), once per frame; the lanes
  // follow their devices on their own, so live events do not re-render the page.
  const page = useClientState(pageState, samePage, "frame");
  const form = useAtomValue(measurementFormAtom);
  const wizard = useAtomValue(wizardAtom);

  // The lanes come from core/client's device cache, which live events keep current while the app runs.
  // The organisation's multi-tests flag chooses the variant (measurements or appointments); core/client keeps it.
  useEffect(() => {
    void client.cache.fetch(CacheKey.Devices, {}).catch(() => undefined);
    void client.cache.fetch(CacheKey.CurrentOrganisation, {}).catch(() => undefined);
  }, [client]);

  const state = page.devices;
  const blinkingId = useScrollTo(state.status === "success");
  // The lane ?scrollTo names renders complete in the first paint, wherever it is (lanes out of view fill in later).
  const scrollTarget = useSearchParams()[0].get("scrollTo")?.split("/")[0] || null;
  const retry = () => void client.cache.fetch(CacheKey.Devices, {}).catch(() => undefined);

  return (
    <div className="tech">
      <div className="tech-head">
        <h1>{t`Technician`}</h1>
        <span className="tech-socket" role="status" data-socket={page.socketState}>
          {i18n._(socketStateNames[page.socketState])}
        </span>
      </div>
      {state.status === "loading" && (
        <div className="lanes-loading">
          <Skeleton kind="tiles" count={3} />
        </div>
      )}
      {state.status === "error" && (
        <div className="alert alert-error" role="alert">
          {/* "Malformed appointment data shows the text 'Appointments unsupported'": the device list failed to decode there. */}
          <p>
            {malformedAppointments(state.error)
              ? t`Appointments unsupported`
              : t`The devices could not be loaded. Try again or refresh the browser.`}
          </p>
          <button type="button" className="btn" onClick={retry}>{t`Try again`}</button>
        </div>
      )}
      {state.status === "success" && state.empty && (
        <EmptyState
          title={t`No devices yet`}
          hint={t`A VR headset appears here as soon as it is registered to your organisation and switched on.`}
        />
      )}
      {state.status === "success" && page.appointmentsMissing && (
        <p className="alert alert-warning" role="alert">{t`Appointments field missing in one or more devices.`}</p>
      )}
      {state.status === "success" && !state.empty && <Lanes blinkingId={blinkingId} revealSn={scrollTarget} />}
      {form && <MeasurementFormDialog request={form} />}
      {wizard && <ExaminationWizard request={wizard} />}
      <TrashDialog />
      <MoveDialogs />
    </div>
  );
}

/** What the page itself shows of the client (the lanes read the rest). */
const pageState = (client: Client) => {
  const s = devicesState(client);
  const devices =
    s.status === "success"
      ? ({ status: s.status, empty: s.views.length === 0 } as const)
      : s.status === "error"
        ? ({ status: s.status, error: s.error } as const)
        : ({ status: s.status } as const);
  return {
    devices,
    socketState: client.session.socketState,
    appointmentsMissing: s.status === "success" && client.lanes.appointmentsMissing(),
  };
};
type PageState = ReturnType<typeof pageState>;
const samePage = (a: PageState, b: PageState) =>
  a.socketState === b.socketState &&
  a.appointmentsMissing === b.appointmentsMissing &&
  a.devices.status === b.devices.status &&
  (a.devices.status !== "success" || a.devices.empty === (b.devices as typeof a.devices).empty) &&
  (a.devices.status !== "error" || a.devices.error === (b.devices as typeof a.devices).error);

/** The device list answered, but an appointment in it did not match the model (the decode error names the field). */
export const malformedAppointments = (error: unknown): boolean => isApiError(error) && /appointments/.test(error.field ?? "");

/**
 * "/technician?scrollTo={deviceSn}/{id} scrolls to the device card and makes it blink for 1.5 s, then the route
 * returns to /technician." Without a card id (or when the card is gone) the device's lane is scrolled to.
 */
function useScrollTo(ready: boolean): string | null {
  const client = useClient();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [blinking, setBlinking] = useState<string | null>(null);
  const target = params.get("scrollTo");
  useEffect(() => {
    if (!ready || !target) return;
    const [deviceSn, id] = target.split("/");
    // Appointment variant: home names an examination; its card is the appointment holding it.
    const cardId = id
      ? (client.devices
          .list()
          .flatMap((v) => v.device.appointments ?? [])
          .find((a) => a.examinations.some((e) => e.id === id))?.id ?? id)
      : undefined;
    const card = cardId ? document.getElementById(`card-${cardId}`) : null;
    const node = card ?? (deviceSn ? document.getElementById(`lane-${deviceSn}`) : null);
    node?.scrollIntoView?.({ block: "center", inline: "center", behavior: "smooth" });
    if (card && cardId) setBlinking(cardId);
    const timer = setTimeout(() => {
      setBlinking(null);
      navigate("/technician", { replace: true });
    }, CARD_BLINK_MS);
    return () => clearTimeout(timer);
  }, [ready, target, navigate, client]);
  return blinking;
}
