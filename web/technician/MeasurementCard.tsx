import { forwardRef, memo, type CSSProperties, type HTMLAttributes } from "react";
import { useLingui } from "@lingui/react/macro";
import { useSortable } from "@dnd-kit/sortable";
import { patternLabel, Strategy } from "../../core/model/enums.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import { useDateFormat } from "../i18n/format.ts";
import { eyeNames, strategyNames } from "../i18n/names.ts";
import { stimuliUpdateName } from "./names.ts";
import { PatientName } from "../ui/PatientName.tsx";
import { useSetAtom } from "jotai";
import { measurementTest } from "../../core/scheduling/next-test.ts";
import { trashRequestAtom } from "../state/technician.ts";
import { TrashIcon } from "../ui/icons.tsx";

export interface CardInfo {
  readonly measurement: Measurement;
  readonly running: boolean;
  /** Tested / total locations. */
  readonly progress: { readonly tested: number; readonly total: number };
  /** Paired with the next card (other eye): drawn joined. */
  readonly linkedToNext: boolean;
  readonly blinking: boolean;
}

/** A measurement card's face: the seed's fields in a 56-unit-high card. */
export const MeasurementCardFace = forwardRef<
  HTMLDivElement,
  CardInfo & HTMLAttributes<HTMLDivElement> & { dragging?: boolean; titleId?: string; extra?: React.ReactNode }
>(function MeasurementCardFace(
  { measurement: m, running, progress, linkedToNext, blinking, dragging, titleId, extra, className, ...rest },
  ref,
) {
  const { t, i18n } = useLingui();
  const { date } = useDateFormat();
  const sors = m.strategy === Strategy.SORS ? String(m.sorsStage) : m.strategy === Strategy.SORS_screening ? "16" : "–";
  return (
    <div
      ref={ref}
      className={`mcard${blinking ? " mcard-blink" : ""}${className ? ` ${className}` : ""}`}
      data-running={running}
      data-dragging={dragging ?? false}
      data-linked={linkedToNext}
      data-card-id={m.id}
      id={`card-${m.id}`}
      {...rest}
    >
      <div className="mcard-title" id={titleId} title={m.displayName} data-user-text>
        {m.displayName || t`Test`}
      </div>
      <PatientName className="mcard-patient" patientId={m.patientId} />
      <dl>
        <dt>{t`Eye`}</dt>
        <dd>{i18n._(eyeNames[m.eye])}</dd>
        <dt>{t`Pattern`}</dt>
        <dd>{patternLabel[m.pattern]}</dd>
        <dt>{t`Strategy`}</dt>
        <dd>{i18n._(strategyNames[m.strategy])}</dd>
        <dt>{t`SORS stage`}</dt>
        <dd>{sors}</dd>
        <dt>{t`Stimuli update`}</dt>
        <dd>{stimuliUpdateName(m.stimuliUpdate, t`Adaptive`)}</dd>
        <dt>{t`Gaze tracking`}</dt>
        <dd>{m.trackGaze ? t`On` : t`Off`}</dd>
        <dt>{t`Audio guide`}</dt>
        <dd>{m.audioGuide ? t`On` : t`Off`}</dd>
        <dt>{t`Taken`}</dt>
        <dd>{m.result ? date(m.result.takenAt) : t`without result`}</dd>
      </dl>
      <div className="mcard-foot">
        <span className="num" role="img" aria-label={t`${progress.tested} of ${progress.total} locations tested`}>
          {progress.tested}/{progress.total}
        </span>
        {running && <span className="lane-status" data-tone="running">{t`Running`}</span>}
      </div>
      {extra}
      {linkedToNext && <span className="mcard-link" aria-hidden="true" />}
    </div>
  );
});

/**
 * The card in its lane: draggable by pointer and keyboard (space to lift, arrows to move, space to drop). The card face
 * is the drag handle; Edit and Clone sit beside it in the same moving wrapper, so no button nests inside the handle.
 */
interface MeasurementCardProps {
  info: CardInfo;
  deviceId: string;
  index: number;
  onEdit: () => void;
  onClone: () => void;
}

/**
 * A lane re-renders on every heartbeat of its device; a card re-renders only when what it shows changes. The edit and
 * clone callbacks are left out of the comparison: they open the form for this card's measurement in this lane, which
 * the compared fields already cover.
 */
const sameCard = (a: MeasurementCardProps, b: MeasurementCardProps): boolean =>
  a.deviceId === b.deviceId &&
  a.index === b.index &&
  a.info.measurement === b.info.measurement &&
  a.info.running === b.info.running &&
  a.info.progress.tested === b.info.progress.tested &&
  a.info.progress.total === b.info.progress.total &&
  a.info.linkedToNext === b.info.linkedToNext &&
  a.info.blinking === b.info.blinking;

export const MeasurementCard = memo(function MeasurementCard({ info, deviceId, index, onEdit, onClone }: MeasurementCardProps) {
  const { t } = useLingui();
  const m = info.measurement;
  const requestTrash = useSetAtom(trashRequestAtom);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: m.id,
    data: { deviceId, index },
    // The running card stays put but still takes drops: one dropped in front of it lands after it ("the target index
    // shifts by one so the running item stays first", core/scheduling planDrop).
    disabled: { draggable: info.running, droppable: false },
  });
  const style: CSSProperties = {
    transform: transform ? `translate3d(${Math.round(transform.x)}px, ${Math.round(transform.y)}px, 0)` : undefined,
    transition,
  };
  // The handle's name comes from its content (what it shows), plus its place in the queue for screen readers.
  const titleId = `card-title-${m.id}`;
  const positionId = `card-position-${m.id}`;
  return (
    <div ref={setNodeRef} style={style} className="mcard-wrap">
      <MeasurementCardFace
        ref={setActivatorNodeRef}
        {...info}
        dragging={isDragging}
        {...attributes}
        {...listeners}
        aria-roledescription={t`draggable measurement`}
        titleId={titleId}
        extra={
          <span id={positionId} className="visually-hidden">
            {info.running ? t`running` : t`position ${index + 1}`}
          </span>
        }
      />
      {!info.running && (
        <div className="mcard-actions">
          <button type="button" className="btn btn-sm" onClick={onEdit} aria-label={t`Edit ${m.displayName}`}>{t`Edit`}</button>
          <button type="button" className="btn btn-sm" onClick={onClone} aria-label={t`Clone ${m.displayName}`}>{t`Clone`}</button>
          <button
            type="button"
            className="btn btn-sm btn-icon"
            onClick={() => requestTrash({ item: "measurement", test: measurementTest(m), deviceSn: m.deviceSn })}
            aria-label={t`Move ${m.displayName} to the bin`}
            title={t`Move to bin`}
          >
            <TrashIcon />
          </button>
        </div>
      )}
    </div>
  );
}, sameCard);
