import { useEffect, useRef, useState, type CSSProperties } from "react";
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type ScreenReaderInstructions,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { useLingui } from "@lingui/react/macro";
import type { I18n } from "@lingui/core";
import type { Appointment } from "../../core/model/appointment.ts";
import type { Examination } from "../../core/model/examination.ts";
import { useClient, useClientState } from "../state/client.ts";
import { eyeNames } from "../i18n/names.ts";
import { ConfirmDialog } from "../ui/Modal.tsx";
import { testTypeNames } from "./names.ts";
import { PatientName } from "../ui/PatientName.tsx";
import { useSetAtom } from "jotai";
import { trashRequestAtom, wizardAtom } from "../state/technician.ts";
import { appointmentTest } from "../../core/scheduling/next-test.ts";
import { TrashIcon } from "../ui/icons.tsx";

/**
 * The appointment side panel (scheduling seed §2): the appointment's examinations in a draggable list (pointer and
 * keyboard), reordered through core/client (optimistic; on failure the notice, the 500 ms wiggle, then revert), and a
 * delete action per examination with confirmation. "Dragging is disabled with a single examination."
 */
// Sensor options are module constants: new objects on each render would rebuild dnd-kit's sensors and re-render every
// card that uses its context (bench:technician measured ~1,000 card renders per second from that alone).
const pointerOptions = { activationConstraint: { distance: 6 } };
const keyboardOptions = { coordinateGetter: sortableKeyboardCoordinates };

export function AppointmentPanel({
  appointment,
  onClose,
  running = false,
}: {
  appointment: Appointment;
  onClose: () => void;
  /** Its test runs: it cannot go to the bin (stop it first). */
  running?: boolean;
}) {
  const { t, i18n } = useLingui();
  const requestTrash = useSetAtom(trashRequestAtom);
  const test = appointmentTest(appointment);
  const client = useClient();
  const wiggling = useClientState((c) => c.lanes.wiggling.has(appointment.id));
  const [deleting, setDeleting] = useState<Examination | null>(null);
  const openWizard = useSetAtom(wizardAtom);
  const exams = appointment.examinations;
  const single = exams.length < 2;
  const sensors = useSensors(useSensor(PointerSensor, pointerOptions), useSensor(KeyboardSensor, keyboardOptions));
  // An examination is being dragged: Escape then cancels the drag (dnd-kit's keyboard sensor), it does not close the panel.
  const dragging = useRef(false);
  // Escape closes the panel (as a dialog would), unless a dialog above it takes the key first.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !dragging.current && !document.querySelector('[aria-modal="true"]') && !event.defaultPrevented)
        onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);
  const onDragEnd = (e: DragEndEvent) => {
    dragging.current = false;
    if (!e.over || e.active.id === e.over.id) return;
    const from = exams.findIndex((x) => x.id === e.active.id);
    const to = exams.findIndex((x) => x.id === e.over!.id);
    if (from >= 0 && to >= 0) void client.lanes.reorderExaminations(appointment.id, from, to);
  };
  // What a screen reader hears while an examination is dragged: the examination (test and eye) and positions, not ids.
  const count = exams.length;
  const spoken = (id: UniqueIdentifier | undefined) => {
    const index = exams.findIndex((x) => x.id === id);
    return { name: index >= 0 ? examinationName(exams[index]!, i18n) : "", position: index + 1 };
  };
  // Where the last announcement left the examination: dnd-kit reports "over" its own place right after the pick-up,
  // which would replace "Picked up ..." before it is read.
  const announcedOver = useRef<UniqueIdentifier | null>(null);
  const announcements: Announcements = {
    onDragStart({ active }) {
      announcedOver.current = active.id;
      const { name, position } = spoken(active.id);
      return t`Picked up ${name}, position ${position} of ${count}.`;
    },
    onDragOver({ active, over }) {
      if ((over?.id ?? null) === announcedOver.current) return undefined;
      announcedOver.current = over?.id ?? null;
      const { name } = spoken(active.id);
      if (!over) return t`${name} is no longer over a position in the list.`;
      const { position } = spoken(over.id);
      return t`${name} is over position ${position} of ${count}.`;
    },
    onDragEnd({ active, over }) {
      const { name, position: from } = spoken(active.id);
      if (!over) return t`${name} dropped; it stays at position ${from} of ${count}.`;
      const { position } = spoken(over.id);
      return t`${name} dropped at position ${position} of ${count}.`;
    },
    onDragCancel({ active }) {
      const { name, position } = spoken(active.id);
      return t`Moving ${name} cancelled; it stays at position ${position} of ${count}.`;
    },
  };
  const screenReaderInstructions: ScreenReaderInstructions = {
    draggable: t`To move an examination, press space or enter, then the up and down arrow keys. Press space or enter again to drop it in its new position, or escape to cancel.`,
  };
  return (
    <aside className={`apanel${wiggling ? " acard-wiggle" : ""}`} aria-label={t`Appointment`} data-testid="appointment-panel">
      <div className="row">
        <h2 className="spacer">{t`Appointment`}</h2>
        <button type="button" className="btn btn-sm btn-icon" aria-label={t`Close`} onClick={onClose}>
          ×
        </button>
      </div>
      <p className="apanel-patient">
        <PatientName patientId={appointment.patientId} />
      </p>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragStart={() => {
          dragging.current = true;
        }}
        onDragEnd={onDragEnd}
        onDragCancel={() => {
          // after this key's own listeners: the Escape that cancelled the drag must not close the panel too
          setTimeout(() => {
            dragging.current = false;
          }, 0);
        }}
        accessibility={{ announcements, screenReaderInstructions }}
      >
        <SortableContext items={exams.map((x) => x.id)} strategy={verticalListSortingStrategy}>
          <ol className="apanel-list">
            {exams.map((x) => (
              <ExaminationRow
                key={x.id}
                examination={x}
                disabled={single || x.taken}
                onDelete={() => setDeleting(x)}
                onEdit={appointment.deviceSn ? () => openWizard({ deviceSn: appointment.deviceSn!, examination: x }) : undefined}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
      <div className="row" style={{ marginTop: "var(--space-3)" }}>
        {appointment.deviceSn && (
          <button
            type="button"
            className="btn"
            onClick={() => openWizard({ deviceSn: appointment.deviceSn!, appointmentId: appointment.id, patientId: appointment.patientId })}
          >{t`Add`}</button>
        )}
        {test && !running && (
          <button
            type="button"
            className="btn btn-danger"
            onClick={() => requestTrash({ item: "appointment", test, deviceSn: appointment.deviceSn })}
          >
            <TrashIcon /> {t`Move appointment to bin`}
          </button>
        )}
      </div>
      {deleting && (
        <ConfirmDialog
          title={t`Delete this examination?`}
          confirmLabel={t`Delete`}
          danger
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const id = deleting.id;
            setDeleting(null);
            void client.lifecycle("examination", "trash", id);
          }}
        >
          <p>{t`The examination is removed from the appointment.`}</p>
        </ConfirmDialog>
      )}
    </aside>
  );
}

function ExaminationRow({
  examination: x,
  disabled,
  onDelete,
  onEdit,
}: {
  examination: Examination;
  disabled: boolean;
  onDelete: () => void;
  onEdit: (() => void) | undefined;
}) {
  const { t, i18n } = useLingui();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: x.id, disabled });
  const style: CSSProperties = { transform: transform ? `translate3d(0, ${Math.round(transform.y)}px, 0)` : undefined, transition };
  const name = examinationName(x, i18n);
  return (
    <li ref={setNodeRef} style={style} className="apanel-row" data-taken={x.taken} data-dragging={isDragging}>
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: dnd-kit's attributes give the handle role button */}
      <span
        ref={setActivatorNodeRef}
        className="apanel-handle"
        {...attributes}
        {...listeners}
        aria-roledescription={t`draggable examination`}
        aria-disabled={disabled}
      >
        {name}
      </span>
      {x.taken && <span className="muted">{t`taken`}</span>}
      {onEdit && !x.taken && <button type="button" className="btn btn-sm" onClick={onEdit} aria-label={t`Edit ${name}`}>{t`Edit`}</button>}
      <button type="button" className="btn btn-sm" onClick={onDelete} aria-label={t`Delete ${name}`}>{t`Delete`}</button>
    </li>
  );
}

/** An examination as the panel names it: test and eye ("Amsler grid · Right eye"). */
const examinationName = (x: Examination, i18n: I18n) => `${i18n._(testTypeNames[x.type])} · ${i18n._(eyeNames[x.eye])}`;
