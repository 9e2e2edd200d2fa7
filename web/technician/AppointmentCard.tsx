import type { CSSProperties } from "react";
import { Plural, useLingui } from "@lingui/react/macro";
import { useSortable } from "@dnd-kit/sortable";
import type { Appointment } from "../../core/model/appointment.ts";
import { eyeNames } from "../i18n/names.ts";
import { testTypeNames } from "./names.ts";
import { PatientName } from "../ui/PatientName.tsx";
import { useSetAtom } from "jotai";
import { appointmentTest } from "../../core/scheduling/next-test.ts";
import { trashRequestAtom } from "../state/technician.ts";
import { TrashIcon } from "../ui/icons.tsx";

/**
 * An appointment card (appointment variant, 40 units high): its examinations in run order, how many are taken, and
 * the error wiggle. The card is the drag handle for moving the whole appointment; a click opens its side panel.
 */
export function AppointmentCard({
  appointment: a,
  deviceId,
  index,
  running,
  wiggling,
  selected,
  onOpen,
  blinking = false,
}: {
  appointment: Appointment;
  deviceId: string;
  index: number;
  running: boolean;
  wiggling: boolean;
  selected: boolean;
  onOpen: () => void;
  /** The target of ?scrollTo (1.5 s). */
  blinking?: boolean;
}) {
  const { t, i18n } = useLingui();
  const requestTrash = useSetAtom(trashRequestAtom);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: a.id,
    data: { deviceId, index },
    // The running appointment stays first but takes drops in front of it (they land after it).
    disabled: { draggable: running, droppable: false },
  });
  const style: CSSProperties = {
    transform: transform ? `translate3d(${Math.round(transform.x)}px, ${Math.round(transform.y)}px, 0)` : undefined,
    transition,
  };
  const taken = a.examinations.filter((e) => e.taken).length;
  const test = appointmentTest(a);
  return (
    // The card is the drag handle; the bin button shares its grid cell (top-right corner), never nested inside it.
    <div ref={setNodeRef} style={style} className="acard-wrap">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dnd-kit's attributes give the handle role button and a tab stop */}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: dnd-kit's attributes give the handle role button */}
      <div
        ref={setActivatorNodeRef}
        className={`acard${wiggling ? " acard-wiggle" : ""}${blinking ? " mcard-blink" : ""}`}
        data-running={running}
        data-dragging={isDragging}
        data-selected={selected}
        data-card-id={a.id}
        id={`card-${a.id}`}
        {...attributes}
        {...listeners}
        aria-roledescription={t`draggable appointment`}
        onClick={onOpen}
        onKeyDown={(e) => {
          listeners?.onKeyDown?.(e);
          if (e.key === "Enter") onOpen();
        }}
      >
        <PatientName className="mcard-title" patientId={a.patientId} />
        <div className="acard-meta">
          {t`Appointment`} · <Plural value={a.examinations.length} one="# test" other="# tests" />
        </div>
        <ul className="acard-exams">
          {a.examinations.slice(0, 3).map((e) => (
            <li key={e.id} data-taken={e.taken}>
              {i18n._(testTypeNames[e.type])} · {i18n._(eyeNames[e.eye])}
            </li>
          ))}
          {a.examinations.length > 3 && <li className="muted">{t`and ${a.examinations.length - 3} more`}</li>}
        </ul>
        <div className="mcard-foot">
          <span className="num">
            {taken}/{a.examinations.length}
          </span>
          {running && <span className="lane-status" data-tone="running">{t`Running`}</span>}
        </div>
      </div>
      {!running && test && (
        <button
          type="button"
          className="btn btn-sm btn-icon acard-trash"
          onClick={() => requestTrash({ item: "appointment", test, deviceSn: a.deviceSn })}
          aria-label={t`Move the appointment to the bin`}
          title={t`Move to bin`}
        >
          <TrashIcon />
        </button>
      )}
    </div>
  );
}
