import { memo, useRef } from "react";
import { useDroppable } from "@dnd-kit/core";
import { SortableContext, horizontalListSortingStrategy } from "@dnd-kit/sortable";
import { useLingui } from "@lingui/react/macro";
import { useSetAtom } from "jotai";
import type { DeviceView } from "../../core/client/device-view.ts";
import { areLinked } from "../../core/scheduling/lane.ts";
import { measurementFormAtom } from "../state/technician.ts";
import { useDeviceView } from "./frame-snapshot.ts";
import { LaneHeader } from "./LaneHeader.tsx";
import { LivePanel, type LiveTest } from "./LivePanel.tsx";
import type { Appointment } from "../../core/model/appointment.ts";
import type { RunningTest } from "../../core/model/running-test.ts";
import { TestType } from "../../core/model/enums.ts";
import { testTypeNames } from "./names.ts";
import { MeasurementCard } from "./MeasurementCard.tsx";
import { progressRatio } from "./locations.ts";
import { AppointmentCard } from "./AppointmentCard.tsx";
import { isStandaloneRun, rememberStandalone, StandaloneLivePanel } from "./StandaloneLivePanel.tsx";

export const laneDropId = (deviceId: string) => `lane:${deviceId}`;

/** Where a dragged card would land in this lane (a bar before that index), and whether the drop would be refused. */
export interface LandingMark {
  readonly deviceId: string;
  readonly index: number;
  readonly refused: boolean;
}

/**
 * One device's lane, following that device alone: it reads its view from the client once per animation frame and
 * renders only when what it shows changed (sameView), so other headsets' live events and heartbeats skip it.
 */
function LaneOfDevice({ deviceSn, ...props }: Omit<LaneProps, "view"> & { deviceSn: string }) {
  const view = useDeviceView(deviceSn);
  return view ? <LaneView view={view} {...props} /> : null;
}

/** One device: its header, its queue of measurement cards (leftmost runs next) and the live panel while a test runs. */
function LaneView({
  view,
  pinned,
  flashing,
  over,
  blinkingId,
  landing = null,
  appointments = null,
  pending: putOff = false,
  watch,
}: {
  view: DeviceView;
  pinned: boolean;
  flashing: boolean;
  over: boolean;
  blinkingId: string | null;
  landing?: LandingMark | null;
  /** Not yet filled in (lane-rendering.ts): the header over a placeholder as wide as the queue; `watch` sees it near. */
  pending?: boolean;
  watch?: (element: Element | null) => void;
  /** Appointment variant: which appointments wiggle, which one's panel is open, and how to open one. */
  appointments?: { wiggling: ReadonlySet<string>; selectedId: string | null; open: (id: string) => void } | null;
}) {
  const { t, i18n } = useLingui();
  const device = view.device;
  const openForm = useSetAtom(measurementFormAtom);
  const { setNodeRef } = useDroppable({ id: laneDropId(device.id), data: { deviceId: device.id, lane: true } });
  const items = device.perimetries;
  const ids = useSameIds(appointments ? (device.appointments ?? []) : items);
  const live = view.liveProgress;
  rememberStandalone(device.standaloneId);
  // An empty queue has no cards to put off: its lane renders whole (its note, not a placeholder), and it is shorter
  // than the lanes the first paint's budget counts on (lane-rendering.ts).
  const pending = putOff && queueLength(device, appointments !== null) > 0;
  const liveTest =
    live === null
      ? undefined
      : appointments
        ? perimetryUnderWay(device.appointments ?? [], live, i18n._(testTypeNames[TestType.Perimetry]))
        : items.find((m) => m.id === live.perimetryId);
  return (
    <section
      className={`lane${flashing ? " lane-flash" : ""}`}
      data-pinned={pinned}
      data-over={over}
      id={`lane-${device.deviceSn}`}
      aria-label={device.alias || device.deviceSn}
      data-testid="lane"
      data-device-sn={device.deviceSn}
      ref={pending ? watch : undefined}
      aria-busy={pending || undefined}
    >
      <LaneHeader view={view} />
      <div className="lane-body">
        {pending ? (
          <div ref={setNodeRef} className={`lane-cards${appointments ? " lane-cards-appointments" : ""}`}>
            <div
              className="lane-pending"
              style={{ width: `calc(${queueLength(device, appointments !== null)} * (224px + var(--space-2)))` }}
            />
          </div>
        ) : appointments ? (
          <SortableContext id={device.id} items={ids} strategy={horizontalListSortingStrategy}>
            {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role is list, or group when empty (set below), both named */}
            <div
              ref={setNodeRef}
              className="lane-cards lane-cards-appointments"
              role={(device.appointments ?? []).length === 0 ? "group" : "list"}
              aria-label={t`Queue of ${device.alias || device.deviceSn}`}
            >
              {(device.appointments ?? []).length === 0 && <p className="lane-empty">{t`No appointments queued.`}</p>}
              {(device.appointments ?? []).map((a, i) => (
                // biome-ignore lint/a11y/useSemanticElements: a list item of the div list above (the drop target, a group when empty)
                <div role="listitem" key={a.id} className="lane-slot">
                  {landing?.index === i && <LandingBar refused={landing.refused} />}
                  <AppointmentCard
                    appointment={a}
                    deviceId={device.id}
                    index={i}
                    running={view.runningId === a.id}
                    wiggling={appointments.wiggling.has(a.id)}
                    selected={appointments.selectedId === a.id}
                    onOpen={() => appointments.open(a.id)}
                    blinking={blinkingId === a.id}
                  />
                </div>
              ))}
              {landing !== null && landing.index >= (device.appointments ?? []).length && <LandingBar refused={landing.refused} />}
            </div>
          </SortableContext>
        ) : (
          <SortableContext id={device.id} items={ids} strategy={horizontalListSortingStrategy}>
            {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role is list, or group when empty (set below), both named */}
            <div
              ref={setNodeRef}
              className="lane-cards"
              role={items.length === 0 ? "group" : "list"}
              aria-label={t`Queue of ${device.alias || device.deviceSn}`}
            >
              {items.length === 0 && <p className="lane-empty">{t`No measurements queued. Use + to add one, or drag a card here.`}</p>}
              {items.map((m, i) => (
                // biome-ignore lint/a11y/useSemanticElements: a list item of the div list above (the drop target, a group when empty)
                <div role="listitem" key={m.id} className="lane-slot">
                  {landing?.index === i && <LandingBar refused={landing.refused} />}
                  <MeasurementCard
                    deviceId={device.id}
                    index={i}
                    info={{
                      measurement: m,
                      running: view.runningId === m.id,
                      progress: progressRatio(m, live),
                      linkedToNext: items[i + 1] !== undefined && areLinked(m, items[i + 1]!),
                      blinking: blinkingId === m.id,
                    }}
                    onEdit={() => openForm({ mode: "edit", deviceSn: device.deviceSn, source: m })}
                    onClone={() => openForm({ mode: "clone", deviceSn: device.deviceSn, source: m })}
                  />
                </div>
              ))}
              {landing !== null && landing.index >= items.length && <LandingBar refused={landing.refused} />}
            </div>
          </SortableContext>
        )}
        {/* Once the result is ready the card leaves the lane; its last progress (kept 5 s) has nothing left to draw. A lane
            not yet filled in (out of sight) draws its live panel with its cards. */}
        {!pending && live && liveTest && (
          <LivePanel
            progress={live}
            measurement={liveTest}
            gazeCalibration={view.gazeCalibration}
            laneName={device.alias || device.deviceSn}
          />
        )}
        {!pending && live && !liveTest && !appointments && isStandaloneRun(live.perimetryId, device.standaloneId) && (
          <StandaloneLivePanel
            standaloneId={live.perimetryId}
            progress={live}
            gazeCalibration={view.gazeCalibration}
            laneName={device.alias || device.deviceSn}
          />
        )}
      </div>
    </section>
  );
}

/**
 * Appointment variant: the perimetry examination the live progress belongs to, drawn like a measurement (the other
 * examinations have no locations to show). Undefined when the progress is of another test or its appointment left.
 */
export function perimetryUnderWay(appointments: readonly Appointment[], live: RunningTest, name: string): LiveTest | undefined {
  const appointment = appointments.find((a) => a.id === live.appointmentId);
  const exam = appointment?.examinations.find((e) => e.id === live.examinationId);
  if (!appointment || !exam || exam.type !== TestType.Perimetry || !exam.config) return undefined;
  return {
    displayName: name,
    pattern: exam.config.pattern,
    strategy: exam.config.strategy,
    eye: exam.eye,
    patientId: appointment.patientId,
  };
}

/**
 * The queue's ids, the same array while they stay the same: SortableContext gives its cards a new context value for
 * a new array, and every card of the lane would re-render on each heartbeat of the headset.
 */
function useSameIds(queue: ReadonlyArray<{ id: string }>): string[] {
  const kept = useRef<string[]>([]);
  const same = kept.current.length === queue.length && queue.every((q, i) => q.id === kept.current[i]);
  if (!same) kept.current = queue.map((q) => q.id);
  return kept.current;
}

const queueLength = (device: DeviceView["device"], byAppointment: boolean) =>
  byAppointment ? (device.appointments ?? []).length : device.perimetries.length;

/** Where a card dragged from another lane would land; red where the planner refuses it (between linked cards). */
function LandingBar({ refused }: { refused: boolean }) {
  const { t } = useLingui();
  return <span className="landing-bar" data-refused={refused} role="presentation" title={refused ? t`cannot drop here` : undefined} />;
}

type LaneProps = Parameters<typeof LaneView>[0];

/** A lane re-renders on its own device's changes (LaneOfDevice) and when the list hands it other marks. */
export const Lane = memo(
  LaneOfDevice,
  (a, b) =>
    a.deviceSn === b.deviceSn &&
    a.pinned === b.pinned &&
    a.flashing === b.flashing &&
    a.pending === b.pending &&
    a.over === b.over &&
    a.blinkingId === b.blinkingId &&
    a.landing === b.landing &&
    a.watch === b.watch &&
    a.appointments?.selectedId === b.appointments?.selectedId &&
    a.appointments?.open === b.appointments?.open &&
    // core/client mutates its wiggle set in place: compare what it holds.
    [...(a.appointments?.wiggling ?? [])].join() === [...(b.appointments?.wiggling ?? [])].join() &&
    (a.appointments === null || a.appointments === undefined) === (b.appointments === null || b.appointments === undefined),
);
