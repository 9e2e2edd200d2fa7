import { useMemo, useState } from "react";
import {
  DndContext, DragOverlay, KeyboardSensor, PointerSensor, closestCenter, pointerWithin, useSensor, useSensors,
  type Announcements, type CollisionDetection, type DragEndEvent, type DragMoveEvent, type DragOverEvent, type DragStartEvent,
} from "@dnd-kit/core";
import { sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import { useAtomValue, useStore } from "jotai";
import { useLingui } from "@lingui/react/macro";
import { deviceView, type DeviceView } from "../../core/client/device-view.ts";
import type { Drop } from "../../core/scheduling/drop-plan.ts";
import { areLinked } from "../../core/scheduling/lane.ts";
import { useApi } from "../state/client.ts";
import { devicesAtom, flashingLanesAtom, trackerAtom, trackerTickAtom } from "../state/devices.ts";
import { dropMeasurement, measurementLanes } from "../state/devices-commands.ts";
import { planDrop } from "../../core/scheduling/drop-plan.ts";
import { pinsAtom } from "../state/technician.ts";
import { orderPinnedFirst } from "../../core/scheduling/pinned-lanes.ts";
import { useNotify } from "../ui/notifications.ts";
import { Lane } from "./Lane.tsx";
import { MeasurementCardFace } from "./MeasurementCard.tsx";
import { progressRatio } from "./locations.ts";

export interface LandingMark { readonly deviceId: string; readonly index: number; readonly refused: boolean }

interface CardData { deviceId: string; index: number; lane?: undefined }
interface LaneData { deviceId: string; lane: true }
type DropData = CardData | LaneData;

/**
 * Where a drop lands, in core/scheduling's convention: the index the card ends up at in the destination list, counted
 * without the dragged card when it stays in its lane. Over a card of another lane the card goes before or after it by
 * which half the pointer is over; over a lane's empty space it goes last.
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

/** Under the pointer a card wins over its lane's empty space; by keyboard (no pointer) the closest centre. */
export const laneCollision: CollisionDetection = (args) => {
  const within = pointerWithin(args);
  const cards = within.filter((c) => !(c.data?.droppableContainer.data.current as DropData | undefined)?.lane);
  if (cards.length > 0) return cards;
  if (within.length > 0) return within;
  return closestCenter(args);
};

/** Every device lane, pinned first, in one drag-and-drop context so cards move within and across lanes. */
export function Lanes({ blinkingId, refetch }: { blinkingId: string | null; refetch: () => Promise<void> }) {
  const { t } = useLingui();
  const store = useStore();
  const api = useApi();
  const notify = useNotify();
  const { devices } = useAtomValue(devicesAtom);
  useAtomValue(trackerTickAtom);
  const tracker = useAtomValue(trackerAtom);
  const pins = useAtomValue(pinsAtom);
  const flashing = useAtomValue(flashingLanesAtom);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [overLane, setOverLane] = useState<string | null>(null);
  /** Where a card dragged to another lane would land, and whether the planner would accept it there. */
  const [landing, setLanding] = useState<LandingMark | null>(null);

  const views: DeviceView[] = orderPinnedFirst(devices, new Set(pins), (d) => d.deviceSn)
    .map((d) => deviceView(d, tracker?.get(d.deviceSn), "measurements"));
  const byId = useMemo(() => new Map(devices.flatMap((d) => d.perimetries.map((m, i) => [m.id, { device: d, index: i }] as const))), [devices]);

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const nameOf = (id: string | number) => byId.get(String(id))?.device.perimetries[byId.get(String(id))!.index]?.displayName ?? String(id);
  const laneName = (deviceId: string) => { const d = devices.find((x) => x.id === deviceId); return d ? d.alias || d.deviceSn : deviceId; };
  const announcements: Announcements = {
    onDragStart: ({ active }) => t`Picked up ${nameOf(active.id)}. Use the arrow keys to move it, space to drop, escape to cancel.`,
    onDragOver: ({ active, over }) => over ? t`${nameOf(active.id)} is over ${laneName((over.data.current as DropData).deviceId)}.` : t`${nameOf(active.id)} is not over a lane.`,
    onDragEnd: ({ active, over }) => over ? t`${nameOf(active.id)} dropped on ${laneName((over.data.current as DropData).deviceId)}.` : t`${nameOf(active.id)} dropped outside the lanes.`,
    onDragCancel: ({ active }) => t`Moving ${nameOf(active.id)} was cancelled.`,
  };

  const onDragStart = (e: DragStartEvent) => setActiveId(String(e.active.id));
  const onDragOver = (e: DragOverEvent) => setOverLane((e.over?.data.current as DropData | undefined)?.deviceId ?? null);
  const onDragMove = (e: DragMoveEvent) => {
    const drop = dropOf(e, (id) => devices.find((d) => d.id === id)?.perimetries.length ?? 0);
    const destination = drop?.destination;
    if (!drop || !destination || destination.deviceId === drop.source.deviceId) return setLanding((l) => (l === null ? l : null));
    const refused = planDrop(measurementLanes(store), drop).outcome === "refused";
    setLanding((l) => (l && l.deviceId === destination.deviceId && l.index === destination.index && l.refused === refused ? l : { ...destination, refused }));
  };
  const onDragEnd = async (e: DragEndEvent) => {
    setActiveId(null);
    setOverLane(null);
    setLanding(null);
    const drop = dropOf(e, (id) => devices.find((d) => d.id === id)?.perimetries.length ?? 0);
    if (!drop) return;
    const result = await dropMeasurement({ store, api, refetch }, drop);
    if (result.outcome === "refused")
      // "A drop between two paired measurements of the same eye is refused with notice 'cannot drop here' (3 s) and a hint."
      notify({ kind: "error", text: `${t`cannot drop here`}. ${t`no items between linked cards`}`, durationMs: result.notice.durationMs });
  };

  const active = activeId ? byId.get(activeId) : undefined;
  const activeCard = active?.device.perimetries[active.index];
  const activeView = active ? views.find((v) => v.device.id === active.device.id) : undefined;

  return (
    <DndContext sensors={sensors} collisionDetection={laneCollision} accessibility={{ announcements }}
      onDragStart={onDragStart} onDragOver={onDragOver} onDragMove={onDragMove} onDragEnd={(e) => void onDragEnd(e)}
      onDragCancel={() => { setActiveId(null); setOverLane(null); setLanding(null); }}>
      <div className="lanes">
        {views.map((view) => (
          <Lane key={view.device.id} view={view} pinned={pins.includes(view.device.deviceSn)} flashing={flashing.has(view.device.id)}
            over={overLane === view.device.id && active?.device.id !== view.device.id} blinkingId={blinkingId}
            landing={landing?.deviceId === view.device.id ? landing : null} />
        ))}
      </div>
      <DragOverlay dropAnimation={null}>
        {activeCard && active && activeView ? (
          <MeasurementCardFace className="mcard-overlay" measurement={activeCard} running={false}
            progress={progressRatio(activeCard, activeView.liveProgress)} blinking={false}
            linkedToNext={active.device.perimetries[active.index + 1] !== undefined && areLinked(activeCard, active.device.perimetries[active.index + 1]!)} />
        ) : null}
      </DragOverlay>
    </DndContext>
  );
}
