import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { TestType } from "../../../core/model/enums.ts";
import type { Patient } from "../../../core/model/patient.ts";
import type { Template } from "../../../core/model/template.ts";
import { CacheKey } from "../../../core/client/index.ts";
import type { Variant } from "../../../core/rules/form-context.ts";
import { useClient, useCache } from "../../state/client.ts";
import { PatientPicker } from "../../technician/PatientPicker.tsx";
import { Modal } from "../../ui/Modal.tsx";
import { Select } from "../../ui/Select.tsx";
import { examinationPayloads, perimetryBodies, toMeasurementConfig } from "./template-tests.ts";

/**
 * Schedules a template's tests for one patient on one headset. Measurement variant: each perimetry test through
 * perimetry/register (the other types have no measurement call and are left out, said so in the dialog).
 * Appointment variant: one appointment holding every test (appointment/register_with_examinations).
 */
export function ScheduleDialog({
  template,
  variant,
  onDone,
  onClose,
}: {
  template: Template;
  variant: Variant;
  onDone: (count: number) => void;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const client = useClient();
  const devices = useCache(CacheKey.Devices, {});
  const [patient, setPatient] = useState<Patient | null>(null);
  const [deviceSn, setDeviceSn] = useState("");
  const [saving, setSaving] = useState(false);
  /** null: no failure; otherwise how many tests were registered before the failing call. */
  const [failed, setFailed] = useState<number | null>(null);
  const appointments = variant === "newer";
  const perimetryCount = template.tests.filter((x) => x.type === TestType.Perimetry).length;
  const schedulable = appointments ? template.tests.length : perimetryCount;
  const skipped = template.tests.length - schedulable;
  const canSchedule = patient !== null && deviceSn !== "" && schedulable > 0 && !saving;

  const schedule = async () => {
    if (!canSchedule || !patient) return;
    setSaving(true);
    setFailed(null);
    const target = { patient, deviceSn };
    let registered = 0;
    if (appointments) {
      // The appointment-level settings follow the first perimetry test, else the core/rules defaults.
      const first = template.tests.find((x) => x.type === TestType.Perimetry);
      const settings = toMeasurementConfig(first ?? { type: TestType.Perimetry, eye: null, config: null }, variant);
      const done = await client.lanes.registerAppointment({
        patientId: patient.id,
        deviceSn,
        standaloneId: null,
        tutorial: false,
        audioGuide: settings.audioGuide,
        trackGaze: settings.trackGaze,
        examinations: examinationPayloads(template.tests, target, variant),
      });
      if (done) return onDone(schedulable);
    } else {
      // core/client queues them one call each, which keeps the template's order in the queue.
      const outcome = await client.lanes.registerMeasurements(perimetryBodies(template.tests, target, variant));
      if (outcome.complete) return onDone(schedulable);
      registered = outcome.registered;
    }
    setFailed(registered);
    setSaving(false);
  };

  const deviceOptions =
    devices.status === "success"
      ? devices.data.map((d) => ({ value: d.deviceSn, label: d.alias ? `${d.alias} (${d.deviceSn})` : d.deviceSn }))
      : [];
  const name = template.name;
  const title = t`Schedule ${name}`;
  return (
    <Modal
      title={title}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn" onClick={onClose}>{t`Cancel`}</button>
          <button type="button" className="btn btn-primary" disabled={!canSchedule} onClick={() => void schedule()}>
            {saving ? t`Scheduling…` : t`Schedule tests`}
          </button>
        </>
      }
    >
      <form
        className="stack"
        aria-label={title}
        onSubmit={(e) => {
          e.preventDefault();
          void schedule();
        }}
      >
        <div>
          <span className="label" style={{ fontWeight: 600, fontSize: "var(--text-sm)" }}>
            {t`Patient`}
            <span className="required" aria-hidden="true">
              *
            </span>
          </span>
          {patient ? (
            <div className="picked-patient">
              <strong>{patient.name}</strong>
              <span className="muted">{patient.uniqueId}</span>
              <span className="spacer" />
              <button type="button" className="btn btn-sm" onClick={() => setPatient(null)}>{t`Change patient`}</button>
            </div>
          ) : (
            <PatientPicker onPick={setPatient} />
          )}
        </div>
        {devices.status === "error" && <p className="alert alert-error" role="alert">{t`The devices cannot be shown.`}</p>}
        {devices.status === "success" && devices.data.length === 0 && (
          <p className="alert alert-warning" role="alert">{t`No devices are registered.`}</p>
        )}
        <Select
          label={t`Device`}
          required
          value={deviceSn}
          placeholder={t`Choose a device`}
          options={deviceOptions}
          onChange={setDeviceSn}
        />
        {skipped > 0 && schedulable > 0 && (
          <p className="alert alert-info">{t`Only perimetry tests can be scheduled as measurements. Tests of other types left out: ${skipped}.`}</p>
        )}
        {schedulable === 0 && <p className="alert alert-warning" role="alert">{t`This template has no perimetry test to schedule.`}</p>}
        {failed === 0 && <p className="alert alert-error" role="alert">{t`The tests could not be scheduled. Try again later.`}</p>}
        {failed !== null && failed > 0 && (
          <p
            className="alert alert-error"
            role="alert"
          >{t`Tests scheduled: ${failed} of ${schedulable}; the others failed. Check the technician view before trying again.`}</p>
        )}
      </form>
    </Modal>
  );
}
