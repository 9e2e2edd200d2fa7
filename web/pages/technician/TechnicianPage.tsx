import { useEffect, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { useAtomValue, useSetAtom, useStore } from "jotai";
import { useLingui } from "@lingui/react/macro";
import { createLiveSocket, browserWebSocket } from "../../../adapters/socket/index.ts";
import { systemClock } from "../../../adapters/clock/system-clock.ts";
import { useServices } from "../../state/client.ts";
import { devicesAtom, socketStateAtom, startDevicesLive, type DevicesLive } from "../../state/devices.ts";
import { liveSocketFactoryAtom } from "../../state/devices-socket.ts";
import { measurementFormAtom, pinsAtom, readPins } from "../../state/technician.ts";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { useNotify } from "../../ui/notifications.ts";
import { Lanes } from "../../technician/Lanes.tsx";
import { MeasurementFormDialog } from "../../technician/MeasurementFormDialog.tsx";
import { socketStateNames } from "../../technician/names.ts";
import "../../technician/technician.css";

/** "card blink 1.5 s" (scheduling seed §9). */
export const CARD_BLINK_MS = 1_500;

/** /technician: a lane per device with its queue, live state and controls (scheduling seed §2 "Technician view"). */
export default function TechnicianPage() {
  const { t, i18n } = useLingui();
  const services = useServices();
  const store = useStore();
  const notify = useNotify();
  const navigate = useNavigate();
  const state = useAtomValue(devicesAtom);
  const socketState = useAtomValue(socketStateAtom);
  const makeSocket = useAtomValue(liveSocketFactoryAtom);
  const setPins = useSetAtom(pinsAtom);
  const form = useAtomValue(measurementFormAtom);
  const live = useRef<DevicesLive | null>(null);
  // The live connection lives as long as the page; notices read the latest translations and router through a ref.
  const latest = useRef({ notify, navigate, t });
  latest.current = { notify, navigate, t };

  useEffect(() => {
    setPins(readPins(services.storage.local));
    const socket = makeSocket
      ? makeSocket(services.storage)
      : createLiveSocket({
          url: new URL("/api/ws", window.location.origin.replace(/^http/, "ws")).href,
          storage: services.storage,
          clock: systemClock,
          create: browserWebSocket,
        });
    store.set(devicesAtom, { status: "loading", devices: [] });
    const instance = startDevicesLive(store, {
      api: services.api,
      socket,
      clock: systemClock,
      onNotice: (notice) => {
        const { notify, navigate, t } = latest.current;
        // "Measurement result ready: ... a success notice 'measurement ready' for 10 s with an action to open the patient's result."
        const action = notice.action;
        notify({
          kind: notice.kind === "error" ? "error" : notice.kind === "success" ? "success" : "info",
          text: notice.title === "measurement ready" ? t`measurement ready` : notice.title,
          durationMs: notice.durationMs,
          ...(action?.kind === "open-result" && action.patientId && action.measurementId
            ? { action: { label: t`Open result`, run: () => navigate(`/patient/${action.patientId}/perimetry/${action.measurementId}`) } }
            : {}),
        });
      },
    });
    live.current = instance;
    return () => { instance.dispose(); live.current = null; };
  }, [services, store, makeSocket, setPins]);

  const blinkingId = useScrollTo(state.status === "success");
  const refetch = () => live.current?.refetch() ?? Promise.resolve();

  return (
    <div className="tech">
      <div className="tech-head">
        <h1>{t`Technician`}</h1>
        <span className="tech-socket" role="status" data-socket={socketState}>{i18n._(socketStateNames[socketState])}</span>
      </div>
      {state.status === "loading" && <div className="lanes-loading"><Skeleton kind="tiles" count={3} /></div>}
      {state.status === "error" && (
        <div className="alert alert-error" role="alert">
          <p>{t`The devices could not be loaded. Try again or refresh the browser.`}</p>
          <button type="button" className="btn" onClick={() => { store.set(devicesAtom, { status: "loading", devices: [] }); void refetch(); }}>{t`Try again`}</button>
        </div>
      )}
      {state.status === "success" && state.devices.length === 0 && (
        <EmptyState title={t`No devices yet`} hint={t`A VR headset appears here as soon as it is registered to your organisation and switched on.`} />
      )}
      {state.status === "success" && state.devices.length > 0 && <Lanes blinkingId={blinkingId} refetch={refetch} />}
      {form && <MeasurementFormDialog request={form} onSaved={() => void refetch()} />}
    </div>
  );
}

/**
 * "/technician?scrollTo={deviceSn}/{id} scrolls to the device card and makes it blink for 1.5 s, then the route
 * returns to /technician." Without a card id (or when the card is gone) the device's lane is scrolled to.
 */
function useScrollTo(ready: boolean): string | null {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [blinking, setBlinking] = useState<string | null>(null);
  const target = params.get("scrollTo");
  useEffect(() => {
    if (!ready || !target) return;
    const [deviceSn, id] = target.split("/");
    const card = id ? document.getElementById(`card-${id}`) : null;
    const node = card ?? (deviceSn ? document.getElementById(`lane-${deviceSn}`) : null);
    node?.scrollIntoView?.({ block: "center", inline: "center", behavior: "smooth" });
    if (card && id) setBlinking(id);
    const timer = setTimeout(() => {
      setBlinking(null);
      navigate("/technician", { replace: true });
    }, CARD_BLINK_MS);
    return () => clearTimeout(timer);
  }, [ready, target, navigate]);
  return blinking;
}
