import { memo, useCallback, useEffect, useState } from "react";
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  pointerWithin,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragMoveEvent,
  type DragOverEvent,
  type DragStartEvent,
} from "@dnd-kit/core";
import { sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import { useLingui } from "@lingui/react/macro";
import { appointmentLane, measurementLane } from "../../core/client/device-view.ts";
import type { Device } from "../../core/model/device.ts";
import { planDrop, type Drop } from "../../core/scheduling/drop-plan.ts";
import { areLinked } from "../../core/scheduling/lane.ts";
import type { Client } from "../../core/client/client.ts";
import { useClient, useClientState } from "../state/client.ts";
import { Lane, type LandingMark } from "./Lane.tsx";
import { MeasurementCardFace } from "./MeasurementCard.tsx";
import { progressRatio } from "./locations.ts";
import { AppointmentPanel } from "./AppointmentPanel.tsx";
import { type LaneSize, useLaneRendering } from "./lane-rendering.ts";
import { useNotify } from "../ui/notifications.ts";
import type { ClickerDisconnectedData } from "../../core/model/live-data.ts";
import { useSetAtom } from "jotai";
import type { Appointment } from "../../core/model/appointment.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import { appointmentTest, measurementTest } from "../../core/scheduling/next-test.ts";
import { dropRefusedAtom, moveRequestAtom } from "../state/technician.ts";

// Sensor options are module constants: new objects on each render would rebuild dnd-kit's sensors and re-render every
// card that uses its context (bench:technician measured ~1,000 card renders per second from that alone).
const pointerOptions = { activationConstraint: { distance: 6 } };
const keyboardOptions = { coordinateGetter: sortableKeyboardCoordinates };

interface CardData {
  deviceId: string;
  index: number;
  lane?: undefined;
}
interface LaneData {
  deviceId: string;
  lane: true;
}
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
    const holding = args.droppableContainers
      .filter((c) => {
        const r = args.droppableRects.get(c.id);
        return c.id !== args.active.id && r !== undefined && x >= r.left && x <= r.left + r.width && y >= r.top && y <= r.top + r.height;
      })
      .map((c) => ({ id: c.id, data: { droppableContainer: c, value: 0 } }));
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

/**
 * Every device lane, pinned first, in one drag-and-drop context so cards move within and across lanes.
 *
 * The drag-and-drop context re-renders only with the drag (and the page's own props): dnd-kit hands a fresh transform
 * to a context on each of its renders, and React then walks the whole tree of cards looking for readers of it. Device
 * events, 70 a second with fifty headsets streaming, re-render the lane list below it instead (LaneList).
 */
export const Lanes = memo(function Lanes({ blinkingId, revealSn = null }: { blinkingId: string | null; revealSn?: string | null }) {
  const { t } = useLingui();
  const client = useClient();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [overLane, setOverLane] = useState<string | null>(null);
  /** Where a card dragged to another lane would land, and whether the planner would accept it there. */
  const [landing, setLanding] = useState<LandingMark | null>(null);

  // "Clicker disconnected | test stopped message" (scheduling seed §8): the headset stopped the test by itself.
  const notify = useNotify();
  useEffect(() => {
    const onClicker = ({ deviceSn }: ClickerDisconnectedData) => {
      const d = client.devices.one(deviceSn)?.device;
      const name = d ? d.alias || d.deviceSn : deviceSn;
      notify({ kind: "error", text: t`${name}: the clicker disconnected, so the test was stopped.` });
    };
    client.events.on("clickerDisconnected", onClicker);
    return () => client.events.off("clickerDisconnected", onClicker);
  }, [client, notify, t]);

  const sensors = useSensors(useSensor(PointerSensor, pointerOptions), useSensor(KeyboardSensor, keyboardOptions));

  // The handlers read the lanes when they run (the client's current state), not from a render.
  const byAppointment = () => client.lanes.variant === "appointments";
  const devices = () => client.devices.list().map((v) => v.device);
  const queue = (d: Device): ReadonlyArray<{ id: string; displayName?: string }> =>
    byAppointment() ? (d.appointments ?? []) : d.perimetries;
  const laneLength = (id: string) => {
    const d = devices().find((x) => x.id === id);
    return d ? queue(d).length : 0;
  };
  const nameOf = (id: string | number) => {
    for (const d of devices()) {
      const item = queue(d).find((m) => m.id === String(id));
      if (item) return item.displayName || t`the appointment`;
    }
    return t`the appointment`;
  };
  const laneName = (deviceId: string) => {
    const d = devices().find((x) => x.id === deviceId);
    return d ? d.alias || d.deviceSn : deviceId;
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => t`Picked up ${nameOf(active.id)}. Use the arrow keys to move it, space to drop, escape to cancel.`,
    onDragOver: ({ active, over }) =>
      over
        ? t`${nameOf(active.id)} is over ${laneName((over.data.current as DropData).deviceId)}.`
        : t`${nameOf(active.id)} is not over a lane.`,
    onDragEnd: ({ active, over }) =>
      over
        ? t`${nameOf(active.id)} dropped on ${laneName((over.data.current as DropData).deviceId)}.`
        : t`${nameOf(active.id)} dropped outside the lanes.`,
    onDragCancel: ({ active }) => t`Moving ${nameOf(active.id)} was cancelled.`,
  };

  const setMoveRequest = useSetAtom(moveRequestAtom);
  const setDropRefused = useSetAtom(dropRefusedAtom);
  const reset = () => {
    setActiveId(null);
    setOverLane(null);
    setLanding(null);
  };
  const onDragStart = (e: DragStartEvent) => setActiveId(String(e.active.id));
  const onDragOver = (e: DragOverEvent) => setOverLane((e.over?.data.current as DropData | undefined)?.deviceId ?? null);
  const onDragMove = (e: DragMoveEvent) => {
    const drop = dropOf(e, laneLength);
    const destination = drop?.destination;
    if (!drop || !destination || destination.deviceId === drop.source.deviceId) return setLanding((l) => (l === null ? l : null));
    const lanes = byAppointment() ? client.devices.list().map(appointmentLane) : client.devices.list().map(measurementLane);
    const plan = planDrop<{ id: string }>(lanes, drop);
    const refused = plan.outcome === "refused";
    // Where the planner puts it (after a running item and its partner, say), else where the pointer is.
    const index = plan.outcome === "moved" ? landingIndex(plan.before.to.items, plan.after.to.items) : destination.index;
    setLanding((l) =>
      l && l.deviceId === destination.deviceId && l.index === index && l.refused === refused
        ? l
        : { deviceId: destination.deviceId, index, refused },
    );
  };
  // "Delete and move actions need confirmation": a planned move waits for MoveDialogs; a refused one opens 'Drop not
  // allowed' beside core/client's 'cannot drop here' notice. Once confirmed, core/client applies the order at once,
  // sends it with the revisions, refetches on a conflict and flashes the lanes on other failures.
  const onDragEnd = (e: DragEndEvent) => {
    reset();
    const drop = dropOf(e, laneLength);
    if (!drop) return;
    const views = client.devices.list();
    const plan = byAppointment()
      ? planDrop<{ id: string }>(views.map(appointmentLane), drop)
      : planDrop<{ id: string }>(views.map(measurementLane), drop);
    if (plan.outcome === "refused") {
      setDropRefused(true);
      void (byAppointment() ? client.lanes.moveAppointment(drop) : client.lanes.moveMeasurement(drop));
      return;
    }
    if (plan.outcome !== "moved") return;
    const snOf = (deviceId: string) => views.find((v) => v.device.id === deviceId)?.device.deviceSn ?? deviceId;
    const moved = views
      .flatMap((v) => (byAppointment() ? (v.device.appointments ?? []) : v.device.perimetries) as ReadonlyArray<Measurement | Appointment>)
      .find((x) => x.id === plan.movedId);
    const test = moved === undefined ? null : "examinations" in moved ? appointmentTest(moved) : measurementTest(moved);
    if (!test) return;
    setMoveRequest({
      item: byAppointment() ? "appointment" : "measurement",
      drop,
      test,
      fromSn: snOf(drop.source.deviceId),
      toSn: snOf(plan.after.to.deviceId),
      position: plan.after.to.items.findIndex((x) => x.id === plan.movedId) + 1,
    });
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={laneCollision}
      accessibility={{ announcements }}
      onDragStart={onDragStart}
      onDragOver={onDragOver}
      onDragMove={onDragMove}
      onDragEnd={onDragEnd}
      onDragCancel={reset}
    >
      <LaneList
        blinkingId={blinkingId}
        revealSn={revealSn}
        activeId={activeId}
        overLane={overLane}
        landing={landing}
        selectedId={selectedId}
        select={setSelectedId}
      />
    </DndContext>
  );
});

/**
 * What the lane list shows itself: which lanes, in which order, pinned, flashing, wiggling. A lane's own content is
 * read by the lane (Lane.tsx), so a streaming headset re-renders its lane and not this list.
 */
interface ListShape {
  readonly key: string;
  readonly lanes: ReadonlyArray<{ readonly id: string; readonly sn: string }>;
}
const listShape = (client: Client): ListShape => {
  const lanes = client.devices.list().map((v) => ({ id: v.device.id, sn: v.device.deviceSn }));
  const key = [
    client.lanes.variant,
    lanes.map((l) => l.id).join(),
    client.marks.pinned.join(),
    [...client.lanes.flashing].join(),
    [...client.lanes.wiggling].join(),
  ].join("|");
  return { key, lanes };
};
const sameShape = (a: ListShape, b: ListShape) => a.key === b.key;

/** The lanes themselves, the dragged card's overlay and the appointment panel. */
function LaneList({
  blinkingId,
  revealSn,
  activeId,
  overLane,
  landing,
  selectedId,
  select,
}: {
  blinkingId: string | null;
  revealSn: string | null;
  activeId: string | null;
  overLane: string | null;
  landing: LandingMark | null;
  selectedId: string | null;
  select: (id: string | null) => void;
}) {
  const client = useClient();
  const { lanes } = useClientState(listShape, sameShape, "frame");
  const pins = client.marks.pinned;
  // The appointment variant queues whole appointments; the measurement variant queues measurements.
  const byAppointment = client.lanes.variant === "appointments";
  const revealId = revealSn ? (lanes.find((l) => l.sn === revealSn)?.id ?? null) : null;
  const rendering = useLaneRendering(lanes.length, revealId, () =>
    client.devices.list().map((v): LaneSize => {
      const queue = byAppointment ? (v.device.appointments ?? []) : v.device.perimetries;
      return queue.length === 0 ? "empty" : v.liveProgress !== null ? "live" : byAppointment ? "appointments" : "cards";
    }),
  );

  // The dragged card as it was picked up (its lane re-renders this list through activeId).
  const views = activeId ? client.devices.list() : [];
  const activeView = activeId
    ? views.find((v) => (byAppointment ? (v.device.appointments ?? []) : v.device.perimetries).some((m) => m.id === activeId))
    : undefined;
  const activeIndex = activeView ? activeView.device.perimetries.findIndex((m) => m.id === activeId) : -1;
  const activeCard = byAppointment || !activeView ? undefined : activeView.device.perimetries[activeIndex];
  const nextCard = activeView?.device.perimetries[activeIndex + 1];
  const open = useCallback((id: string) => select(id), [select]);
  const appointments = byAppointment ? { wiggling: client.lanes.wiggling, selectedId, open } : null;

  return (
    <>
      <div className="lanes">
        {lanes.map(({ id, sn }, i) => (
          <Lane
            key={id}
            deviceSn={sn}
            pending={!rendering.full(i, id)}
            watch={rendering.watch(id)}
            pinned={pins.includes(sn)}
            flashing={client.lanes.flashing.has(id)}
            over={overLane === id && activeView?.device.id !== id}
            blinkingId={blinkingId}
            landing={landing?.deviceId === id ? landing : null}
            appointments={appointments}
          />
        ))}
      </div>
      <DragOverlay dropAnimation={null}>
        {activeCard && activeView ? (
          <MeasurementCardFace
            className="mcard-overlay"
            measurement={activeCard}
            running={false}
            progress={progressRatio(activeCard, activeView.liveProgress)}
            blinking={false}
            linkedToNext={nextCard !== undefined && areLinked(activeCard, nextCard)}
          />
        ) : null}
      </DragOverlay>
      {byAppointment && selectedId && <SelectedAppointment id={selectedId} onClose={() => select(null)} />}
    </>
  );
}

/** The open appointment's panel, following that appointment (and whether it runs) as the client changes. */
function SelectedAppointment({ id, onClose }: { id: string; onClose: () => void }) {
  const appointment = useClientState(
    (c) =>
      c.devices
        .list()
        .flatMap((v) => v.device.appointments ?? [])
        .find((a) => a.id === id),
    Object.is,
    "frame",
  );
  const running = useClientState((c) => c.devices.list().some((v) => v.runningId === id), Object.is, "frame");
  return appointment ? <AppointmentPanel appointment={appointment} onClose={onClose} running={running} /> : null;
}
