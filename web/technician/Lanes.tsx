import { useEffect, useMemo, useState } from "react";
import {
  DndContext, DragOverlay, KeyboardSensor, PointerSensor, closestCenter, pointerWithin, useSensor, useSensors,
  type Announcements, type CollisionDetection, type DragEndEvent, type DragMoveEvent, type DragOverEvent, type DragStartEvent,
} from "@dnd-kit/core";
import { sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import { useLingui } from "@lingui/react/macro";
import { appointmentLane, measurementLane } from "../../core/client/device-view.ts";
import type { Device } from "../../core/model/device.ts";
import { planDrop, type Drop } from "../../core/scheduling/drop-plan.ts";
import { areLinked } from "../../core/scheduling/lane.ts";
import { useClientTopics } from "../state/devices.ts";
import { Lane } from "./Lane.tsx";
import { MeasurementCardFace } from "./MeasurementCard.tsx";
import { progressRatio } from "./locations.ts";
import { AppointmentPanel } from "./AppointmentPanel.tsx";
import { useNotify } from "../ui/notifications.ts";
import type { ClickerDisconnectedData } from "../../core/model/live-data.ts";

// Sensor options are module constants: new objects on each render would rebuild dnd-kit's sensors and re-render every
// card that uses its context (bench:technician measured ~1,000 card renders per second from that alone).
const pointerOptions = { activationConstraint: { distance: 6 } };
const keyboardOptions = { coordinateGetter: sortableKeyboardCoordinates };

export interface LandingMark { readonly deviceId: string; readonly index: number; readonly refused: boolean }

interface CardData { deviceId: string; index: number; lane?: undefined }
interface LaneData { deviceId: string; lane: true }
type DropData = CardData | LaneData;

/**
 * Where a drop lands, in core/scheduling's convention: the index the card ends up at in the destination list, counted
 * without the dragged card when it stays in its lane. Over a card of another lane the card goes before or after it by
 * which half the dragged card's centre is over; over a lane's empty space it goes last.
 */
export function dropOf(event: Pick<DragEndEvent, "active" | "over">, laneLength: (deviceId: string) => number): Drop | null {
  const source = event.active.data.current as CardData | undefined;
  if (!source) return null;
  const over = event.over;
  const target = over?.data.current as DropData | undefined;
  if (!over || !target) return { source, destination: null };
  const same = target.deviceId === source.deviceId;
  if (target.lane) return { source, destination: { deviceId: target.deviceId, index: laneLength(target.deviceId) - (same ? 1 : 0) } };
  if (same) return { source, destination: { deviceId: target.deviceId, index: target.index } };
  const dragged = event.active.rect.current.translated;
  const after = dragged ? dragged.left + dragged.width / 2 > over.rect.left + over.rect.width / 2 : false;
  return { source, destination: { deviceId: target.deviceId, index: target.index + (after ? 1 : 0) } };
}

/**
 * Under the pointer a card wins over its lane's empty space. By keyboard (no pointer) the arrow keys move the card to
 * another droppable's top-left corner: the droppable holding that corner wins (a card, else an empty lane), then the
 * closest centre.
 */
export const laneCollision: CollisionDetection = (args) => {
  const isLane = (c: { data?: Record<string, any> }) => Boolean((c.data?.droppableContainer.data.current as DropData | undefined)?.lane);
  if (args.pointerCoordinates) {
    const within = pointerWithin(args);
    const cards = within.filter((c) => !isLane(c));
    if (cards.length > 0) return cards;
    if (within.length > 0) return within;
  } else {
    const x = args.collisionRect.left + 4;
    const y = args.collisionRect.top + 4;
    const holding = args.droppableContainers.filter((c) => {
      const r = args.droppableRects.get(c.id);
      return c.id !== args.active.id && r !== undefined && x >= r.left && x <= r.left + r.width && y >= r.top && y <= r.top + r.height;
    }).map((c) => ({ id: c.id, data: { droppableContainer: c, value: 0 } }));
    const cards = holding.filter((c) => !isLane(c));
    if (cards.length > 0) return cards;
    if (holding.length > 0) return holding;
  }
  return closestCenter(args);
};

/** The place of the first card a cross-lane move brought into the destination lane. */
export function landingIndex(before: readonly { id: string }[], after: readonly { id: string }[]): number {
  const present = new Set(before.map((c) => c.id));
  const i = after.findIndex((c) => !present.has(c.id));
  return i < 0 ? after.length : i;
}

/** Every device lane, pinned first, in one drag-and-drop context so cards move within and across lanes. */
export function Lanes({ blinkingId }: { blinkingId: string | null }) {
  const { t } = useLingui();
  const client = useClientTopics();
  const views = client.devices();
  const devices = views.map((v) => v.device);
  const pins = client.pinned;
  // The appointment variant queues whole appointments; the measurement variant queues measurements.
  const byAppointment = client.variant === "appointments";
  const queue = (d: Device): ReadonlyArray<{ id: string; displayName?: string }> => (byAppointment ? d.appointments ?? [] : d.perimetries);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [overLane, setOverLane] = useState<string | null>(null);
  /** Where a card dragged to another lane would land, and whether the planner would accept it there. */
  const [landing, setLanding] = useState<LandingMark | null>(null);
  const byId = useMemo(() => new Map(devices.flatMap((d) => queue(d).map((m, i) => [m.id, { device: d, index: i }] as const))),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [byAppointment, devices.map((d) => queue(d).map((m) => m.id).join()).join("|")]);

  // "Clicker disconnected | test stopped message" (scheduling seed §8): the headset stopped the test by itself.
  const notify = useNotify();
  useEffect(() => {
    const onClicker = ({ deviceSn }: ClickerDisconnectedData) => {
      const d = client.device(deviceSn)?.device;
      const name = d ? d.alias || d.deviceSn : deviceSn;
      notify({ kind: "error", text: t`${name}: the clicker disconnected, so the test was stopped.` });
    };
    client.events.on("clickerDisconnected", onClicker);
    return () => client.events.off("clickerDisconnected", onClicker);
  }, [client, notify, t]);

  const sensors = useSensors(
    useSensor(PointerSensor, pointerOptions),
    useSensor(KeyboardSensor, keyboardOptions),
  );

  const laneLength = (id: string) => { const d = devices.find((x) => x.id === id); return d ? queue(d).length : 0; };
  const nameOf = (id: string | number) => { const at = byId.get(String(id)); return (at && queue(at.device)[at.index]?.displayName) || t`the appointment`; };
  const laneName = (deviceId: string) => { const d = devices.find((x) => x.id === deviceId); return d ? d.alias || d.deviceSn : deviceId; };
  const announcements: Announcements = {
    onDragStart: ({ active }) => t`Picked up ${nameOf(active.id)}. Use the arrow keys to move it, space to drop, escape to cancel.`,
    onDragOver: ({ active, over }) => over ? t`${nameOf(active.id)} is over ${laneName((over.data.current as DropData).deviceId)}.` : t`${nameOf(active.id)} is not over a lane.`,
    onDragEnd: ({ active, over }) => over ? t`${nameOf(active.id)} dropped on ${laneName((over.data.current as DropData).deviceId)}.` : t`${nameOf(active.id)} dropped outside the lanes.`,
    onDragCancel: ({ active }) => t`Moving ${nameOf(active.id)} was cancelled.`,
  };

  const reset = () => { setActiveId(null); setOverLane(null); setLanding(null); };
  const onDragStart = (e: DragStartEvent) => setActiveId(String(e.active.id));
  const onDragOver = (e: DragOverEvent) => setOverLane((e.over?.data.current as DropData | undefined)?.deviceId ?? null);
  const onDragMove = (e: DragMoveEvent) => {
    const drop = dropOf(e, laneLength);
    const destination = drop?.destination;
    if (!drop || !destination || destination.deviceId === drop.source.deviceId) return setLanding((l) => (l === null ? l : null));
    const lanes = byAppointment ? client.devices().map(appointmentLane) : client.devices().map(measurementLane);
    const plan = planDrop<{ id: string }>(lanes, drop);
    const refused = plan.outcome === "refused";
    // Where the planner puts it (after a running item and its partner, say), else where the pointer is.
    const index = plan.outcome === "moved" ? landingIndex(plan.before.to.items, plan.after.to.items) : destination.index;
    setLanding((l) => (l && l.deviceId === destination.deviceId && l.index === index && l.refused === refused ? l : { deviceId: destination.deviceId, index, refused }));
  };
  // core/client plans the drop, applies the order at once, sends it with the revisions, refetches on a conflict and
  // flashes the lanes on other failures; a refused drop comes back as its 'cannot drop here' notice.
  const onDragEnd = (e: DragEndEvent) => {
    reset();
    const drop = dropOf(e, laneLength);
    if (drop) void (byAppointment ? client.moveAppointment(drop) : client.moveMeasurement(drop));
  };

  const active = activeId ? byId.get(activeId) : undefined;
  const activeCard = byAppointment ? undefined : active?.device.perimetries[active.index];
  const selectedAppointment = selectedId ? devices.flatMap((d) => d.appointments ?? []).find((a) => a.id === selectedId) : undefined;
  const activeView = active ? views.find((v) => v.device.id === active.device.id) : undefined;

  return (
    <DndContext sensors={sensors} collisionDetection={laneCollision} accessibility={{ announcements }}
      onDragStart={onDragStart} onDragOver={onDragOver} onDragMove={onDragMove} onDragEnd={onDragEnd} onDragCancel={reset}>
      <div className="lanes">
        {views.map((view) => (
          <Lane key={view.device.id} view={view} pinned={pins.includes(view.device.deviceSn)} flashing={client.flashingLanes.has(view.device.id)}
            over={overLane === view.device.id && active?.device.id !== view.device.id} blinkingId={blinkingId}
            landing={landing?.deviceId === view.device.id ? landing : null}
            appointments={byAppointment ? { wiggling: client.wigglingAppointments, selectedId, open: setSelectedId } : null} />
        ))}
      </div>
      <DragOverlay dropAnimation={null}>
        {activeCard && active && activeView ? (
          <MeasurementCardFace className="mcard-overlay" measurement={activeCard} running={false}
            progress={progressRatio(activeCard, activeView.liveProgress)} blinking={false}
            linkedToNext={active.device.perimetries[active.index + 1] !== undefined && areLinked(activeCard, active.device.perimetries[active.index + 1]!)} />
        ) : null}
      </DragOverlay>
      {byAppointment && selectedAppointment && <AppointmentPanel appointment={selectedAppointment} onClose={() => setSelectedId(null)} />}
    </DndContext>
  );
}
