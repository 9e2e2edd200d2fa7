import { useEffect, useState } from "react";
import { useSetAtom } from "jotai";
import { useLingui } from "@lingui/react/macro";
import type { MeasurementConfig } from "../../core/model/measurement-config.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import type { Patient } from "../../core/model/patient.ts";
import { applyConfigChange, type ConfigChange } from "../../core/rules/config-reducer.ts";
import type { ConfigContext } from "../../core/rules/form-context.ts";
import { measurementFormOptions } from "../../core/rules/form-options.ts";
import { onPatientSelected } from "../../core/rules/form-dependencies.ts";
import { openMeasurementForm } from "../../core/rules/prefill.ts";
import { notesCounter, notesLimit } from "../../core/rules/notes.ts";
import { canSaveMeasurement, validateMeasurementConfig } from "../../core/rules/required-fields.ts";
import { CacheKey } from "../../core/client/cache-keys.ts";
import { useClient } from "../state/client.ts";
import { measurementFormAtom, type MeasurementFormRequest } from "../state/technician.ts";
import { Modal } from "../ui/Modal.tsx";
import { TextInput } from "../ui/TextInput.tsx";
import { minutesSeconds } from "./names.ts";
import { PatientPicker } from "./PatientPicker.tsx";
import { PerimetryFields } from "./PerimetryFields.tsx";

// The measurement form dialog (scheduling seed §2 "Measurement form"): create, edit, clone and stand-alone modes,
// every option list, lock and dependency from core/rules, the estimate per eye, the notes counter, save disabled
// without a patient, and the seed's failure message.

/** The measurement variant of the technician view is the seeds' older one (core/rules Variant). */
const VARIANT = "older" as const;

interface FormState {
  readonly config: MeasurementConfig;
  readonly context: ConfigContext;
  readonly patient: Patient | null;
}

export function MeasurementFormDialog({ request }: { request: MeasurementFormRequest }) {
  const { t } = useLingui();
  const client = useClient();
  const close = useSetAtom(measurementFormAtom);
  const device = client.devices.one(request.deviceSn)?.device;
  const [form, setForm] = useState<FormState>(() => {
    const opened = openMeasurementForm({ mode: request.mode, variant: VARIANT, ...(request.source ? { source: request.source } : {}) });
    return { config: { ...opened.config, deviceSn: request.deviceSn }, context: opened.context, patient: null };
  });
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const editing = request.mode === "edit" || request.mode === "clone";

  // Edit and clone keep the measurement's patient: load its name and language (the tutorial depends on it).
  useEffect(() => {
    const id = request.source?.patientId;
    if (!editing || !id) return;
    let live = true;
    client.patients.load(id).then(
      (patient) => {
        if (!live) return;
        setForm((f) => ({ ...f, patient, context: { ...f.context, patientLanguage: patient.lang } }));
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client, editing, request.source?.patientId]);

  const pick = async (patient: Patient) => {
    // "New forms are prefilled from the patient's last measurement (latest result takenAt, else createdAt), else defaults."
    let measurements: readonly Measurement[] = [];
    try {
      measurements = await client.cache.fetch(CacheKey.Measurements, { patientId: patient.id });
    } catch {
      /* stored or defaults then */
    }
    // Without a measurement on the server (none yet, all in the bin, or the list failed), the configuration last saved
    // for this patient here prefills the form before the defaults do.
    const stored = client.marks.lastConfiguration(patient.id);
    const past = measurements.length > 0 || !stored ? measurements : [{ ...stored, createdAt: 0 }];
    const opened = openMeasurementForm({ mode: request.mode, variant: VARIANT, patient, measurements: past });
    setForm({ config: { ...opened.config, deviceSn: request.deviceSn }, context: opened.context, patient });
  };
  const clearPatient = () =>
    setForm((f) => {
      const next = onPatientSelected(f.config, null, f.context);
      return { ...next, patient: null };
    });

  const { config, context } = form;
  const change = (c: ConfigChange) => setForm((f) => ({ ...f, config: applyConfigChange(f.config, c, f.context) }));
  const options = measurementFormOptions(config, context);
  const errors = validateMeasurementConfig(config, context);
  const canSave = canSaveMeasurement(config, context) && !saving;
  const standalone = request.mode === "standalone";

  const save = async () => {
    if (!canSave || config.patientId === null) return;
    setSaving(true);
    setFailed(false);
    // core/client chooses the call: stand-alone mode on (false while another measurement runs), a change, or a new one.
    const done = await client.lanes.saveMeasurement({
      mode: request.mode,
      deviceSn: request.deviceSn,
      config: { ...config, patientId: config.patientId },
      ...(request.source ? { sourceId: request.source.id } : {}),
    });
    setSaving(false);
    if (done) close(null);
    else setFailed(true);
  };

  const titles = {
    create: t`New measurement`,
    edit: t`Edit measurement`,
    clone: t`Clone measurement`,
    standalone: t`Stand-alone measurement`,
  };
  const deviceName = device ? device.alias || device.deviceSn : request.deviceSn;
  const counter = notesCounter(config.notes);
  const estimate = options.estimatedSeconds === undefined ? undefined : minutesSeconds(options.estimatedSeconds);
  return (
    <Modal
      title={titles[request.mode]}
      onClose={() => close(null)}
      actions={
        <>
          <button type="button" className="btn" onClick={() => close(null)}>{t`Cancel`}</button>
          <button type="button" className="btn btn-primary" disabled={!canSave} onClick={() => void save()}>
            {standalone ? t`Start stand-alone mode` : t`Save`}
          </button>
        </>
      }
    >
      <p className="muted">{t`Device: ${deviceName}`}</p>
      {standalone && (
        <p className="alert alert-info">{t`The device repeats this measurement until stand-alone mode is switched off, and uploads the results when it is back on the network.`}</p>
      )}
      <form
        className="mform"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        aria-label={titles[request.mode]}
      >
        <div className="span-2">
          <span className="label" style={{ fontWeight: 600, fontSize: "var(--text-sm)" }}>
            {t`Patient`}
            <span className="required" aria-hidden="true">
              *
            </span>
          </span>
          {form.patient || editing ? (
            <div className="picked-patient">
              <strong>{form.patient?.name ?? t`Loading…`}</strong>
              {form.patient && <span className="muted">{form.patient.uniqueId}</span>}
              <span className="spacer" />
              {!editing && <button type="button" className="btn btn-sm" onClick={clearPatient}>{t`Change patient`}</button>}
            </div>
          ) : (
            <>
              <PatientPicker onPick={(p) => void pick(p)} />
              <p className="field-hint">{t`Choose a patient to save the measurement.`}</p>
            </>
          )}
        </div>
        <div className="span-2">
          <TextInput
            label={t`Display name`}
            value={config.displayName}
            characterRule
            onChange={(v) => change({ field: "displayName", value: v })}
          />
        </div>
        <PerimetryFields config={config} context={context} change={change} />
        {!standalone && (
          <div className="span-2 field">
            <label htmlFor="measurement-notes">{t`Notes`}</label>
            <textarea
              id="measurement-notes"
              className="input"
              value={config.notes}
              maxLength={notesLimit + 16}
              aria-describedby="measurement-notes-counter"
              aria-invalid={errors.notes ? true : undefined}
              onChange={(e) => change({ field: "notes", value: e.target.value })}
            />
            <span id="measurement-notes-counter" className="notes-counter" data-warning={counter.warning} aria-live="polite">
              {counter.length}/{counter.limit}
            </span>
          </div>
        )}
        <p className="span-2 estimate" data-testid="estimate">
          {estimate === undefined
            ? t`No duration estimate for this pattern and strategy.`
            : t`Estimated duration: ${estimate.minutes} min ${estimate.seconds} s per eye`}
        </p>
        {failed && <p className="span-2 alert alert-error" role="alert">{t`error saving the measurement, try again later`}</p>}
      </form>
    </Modal>
  );
}
