import { useEffect, useState } from "react";
import { useSetAtom } from "jotai";
import { useLingui } from "@lingui/react/macro";
import type { Examination, ExaminationConfig, ExaminationPayload } from "../../core/model/examination.ts";
import type { MeasurementConfig } from "../../core/model/measurement-config.ts";
import type { Patient } from "../../core/model/patient.ts";
import { Eye, PatientLanguages, Sex, TestType, patternLabel, type Language } from "../../core/model/enums.ts";
import { applyConfigChange, type ConfigChange } from "../../core/rules/config-reducer.ts";
import type { ConfigContext } from "../../core/rules/form-context.ts";
import { amslerEyes } from "../../core/rules/eyes.ts";
import { openMeasurementForm } from "../../core/rules/prefill.ts";
import { examinationConfigOf } from "../../core/rules/defaults.ts";
import { canSaveMeasurement } from "../../core/rules/required-fields.ts";
import { patientPayload, validatePatientForm, type PatientDraft } from "../../core/rules/patient-form.ts";
import {
  canGoNext,
  nextStep,
  openWizard,
  previousStep,
  primaryButtonLabel,
  type WizardContext,
  type WizardState,
} from "../../core/scheduling/wizard.ts";
import { eyeNames, languageNames, sexNames, strategyNames } from "../i18n/names.ts";
import { ruleDescriptor } from "../i18n/rule-messages.ts";
import { useClient } from "../state/client.ts";
import { wizardAtom } from "../state/technician.ts";
import { todayIso } from "../state/today.ts";
import { Modal } from "../ui/Modal.tsx";
import { Select } from "../ui/Select.tsx";
import { TextInput } from "../ui/TextInput.tsx";
import { PatientPicker } from "./PatientPicker.tsx";
import { PerimetryFields } from "./PerimetryFields.tsx";
import { testTypeNames } from "./names.ts";

// The examination wizard of the appointment variant (scheduling seed §2): full screen; patient selection, patient
// creation, test selection, one configuration step per chosen test, summary; Back and Next; the final button 'Save
// tests'. Steps, their order and their gates come from core/scheduling/wizard. A new appointment is registered with its
// examinations; from an appointment's panel the chosen tests are added to it.

const ALL_TESTS = [TestType.Perimetry, TestType.Amsler, TestType.Acuity, TestType.ColorBlindness] as const;
const CONTEXT: ConfigContext = { mode: "create", variant: "newer", patientLanguage: null };

interface TestSettings {
  readonly eye: Eye;
  readonly perimetry: MeasurementConfig;
}

export interface WizardRequest {
  readonly deviceSn: string;
  readonly appointmentId?: string;
  readonly patientId?: string;
  readonly examination?: Examination;
}

export function ExaminationWizard({ request }: { request: WizardRequest }) {
  const { t, i18n } = useLingui();
  const client = useClient();
  const close = useSetAtom(wizardAtom);
  const editing = request.examination;
  const context: WizardContext = { appointmentId: request.appointmentId ?? null, examinationId: editing?.id ?? null };
  const [state, setState] = useState<WizardState>(() =>
    openWizard(context, { patientId: request.patientId ?? editing?.patientId ?? null, tests: editing ? [editing.type] : [] }),
  );
  const [patient, setPatient] = useState<Patient | null>(null);
  const [settings, setSettings] = useState<TestSettings[]>(() => (editing ? [settingsOf(editing)] : []));
  const [draft, setDraft] = useState<PatientDraft>({ name: "", uniqueId: "", gender: null, lang: null, birthdate: null });
  // The patient fields a user has filled in or left: their "This field is required." shows from then on (all of them
  // once Create patient was pressed), not while the form is still untouched.
  const [touched, setTouched] = useState<ReadonlySet<keyof PatientDraft>>(new Set());
  const [failed, setFailed] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const knownPatientId = request.patientId ?? editing?.patientId ?? null;

  // Opened for a known patient (an appointment's panel, an examination edited): load its name for the steps that show it.
  useEffect(() => {
    if (knownPatientId === null) return;
    let live = true;
    client.patients.load(knownPatientId).then(
      (p) => {
        if (live) setPatient((current) => current ?? p);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client, knownPatientId]);
  // "'Both eyes' is offered only when creating, not when editing" (perimetry and Amsler alike).
  const configContext: ConfigContext = { ...CONTEXT, mode: editing ? "edit" : "create", patientLanguage: patient?.lang ?? null };

  const chooseTests = (tests: readonly TestType[]) => {
    setState((s) => ({ ...s, tests }));
    // Settings already made for a test stay when other tests are added or removed.
    setSettings(
      tests.map(
        (type) =>
          settings[state.tests.indexOf(type)] ?? {
            eye: type === TestType.Amsler ? Eye.Right : Eye.Both,
            perimetry: openMeasurementForm({ mode: "create", variant: "newer", ...(patient ? { patient } : {}) }).config,
          },
      ),
    );
  };

  const payloads = (): ExaminationPayload[] =>
    state.tests.map((type, i) => {
      const s = settings[i]!;
      const p = s.perimetry;
      const config: ExaminationConfig | null = type !== TestType.Perimetry ? null : examinationConfigOf(p);
      return {
        patientId: state.patientId!,
        type,
        deviceSn: request.deviceSn,
        eye: type === TestType.Perimetry ? p.eye : s.eye,
        notes: "",
        config,
      };
    });

  const save = async () => {
    setSaving(true);
    setFailed(null);
    // core/client chooses the call (one examination changed, tests added, or a new appointment with its settings).
    const first = settings[state.tests.indexOf(TestType.Perimetry)]?.perimetry;
    const done = await client.lanes.saveExaminations({
      deviceSn: request.deviceSn,
      patientId: state.patientId!,
      examinations: payloads(),
      ...(editing ? { editing } : {}),
      ...(request.appointmentId ? { appointmentId: request.appointmentId } : {}),
      ...(first ? { perimetry: first } : {}),
    });
    setSaving(false);
    if (done) close(null);
    else setFailed(t`The tests could not be saved. Try again later.`);
  };

  const createPatient = async () => {
    setTouched(new Set(["name", "uniqueId", "gender", "lang", "birthdate"]));
    const body = patientPayload(draft, todayIso());
    if (!body) return;
    try {
      const created = await client.patients.save(body);
      setPatient(created);
      setState((s) => ({ ...s, patientId: created.id }));
      // A retry that worked: the earlier failure no longer applies.
      setFailed(null);
    } catch (e) {
      setFailed(`${t`Couldn't create a patient`}${e instanceof Error && e.message ? `: ${e.message}` : ""}`);
    }
  };

  const step = state.step;
  const next = nextStep(state);
  const back = previousStep(state, context);
  const current = step.kind === "configuration" ? { type: state.tests[step.testIndex]!, index: step.testIndex } : null;
  const configOk =
    !current ||
    current.type !== TestType.Perimetry ||
    canSaveMeasurement({ ...settings[current.index]!.perimetry, patientId: state.patientId }, configContext);
  const primary = primaryButtonLabel(state);
  const primaryText = primary === "Next" ? t`Next` : primary === "Save test" ? t`Save test` : t`Save tests`;
  const patientErrors = validatePatientForm(draft, todayIso());
  const fieldError = (f: keyof PatientDraft) => {
    const d = touched.has(f) ? ruleDescriptor(patientErrors[f]) : undefined;
    return d ? i18n._(d) : undefined;
  };
  const editDraft = (change: Partial<PatientDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    setTouched((s) => new Set([...s, ...(Object.keys(change) as (keyof PatientDraft)[])]));
  };
  const leave = (f: keyof PatientDraft) => setTouched((s) => (s.has(f) ? s : new Set([...s, f])));
  const patientLine = patient ? (
    <p className="wizard-patient" data-testid="wizard-patient">
      {t`Patient`}: <strong>{patient.name}</strong> <span className="muted">{patient.uniqueId}</span>
    </p>
  ) : null;
  const setTestSettings = (index: number, change: Partial<TestSettings>) =>
    setSettings((all) => all.map((s, i) => (i === index ? { ...s, ...change } : s)));

  return (
    <Modal
      title={editing ? t`Edit test` : request.appointmentId ? t`Add tests to the appointment` : t`New appointment`}
      onClose={() => close(null)}
      fullScreen
      actions={
        <>
          {back && <button type="button" className="btn" onClick={() => setState((s) => ({ ...s, step: back }))}>{t`Back`}</button>}
          <button
            type="button"
            className="btn btn-primary"
            disabled={!canGoNext(state) || !configOk || saving}
            onClick={() => {
              if (next === "done") void save();
              else if (next) setState((s) => ({ ...s, step: next }));
            }}
          >
            {primaryText}
          </button>
        </>
      }
    >
      <div className="wizard" data-step={step.kind}>
        {step.kind === "patient-selection" && (
          <section aria-label={t`Patient`}>
            <h3>{t`Choose the patient`}</h3>
            {patient ? (
              <div className="picked-patient">
                <strong>{patient.name}</strong>
                <span className="muted">{patient.uniqueId}</span>
                <span className="spacer" />
                <button
                  type="button"
                  className="btn btn-sm"
                  onClick={() => {
                    setPatient(null);
                    setState((s) => ({ ...s, patientId: null }));
                  }}
                >{t`Change patient`}</button>
              </div>
            ) : (
              <PatientPicker
                onPick={(p) => {
                  setPatient(p);
                  setState((s) => ({ ...s, patientId: p.id }));
                }}
              />
            )}
            <button
              type="button"
              className="btn"
              onClick={() => setState((s) => ({ ...s, step: { kind: "patient-creation" } }))}
            >{t`New patient`}</button>
          </section>
        )}
        {step.kind === "patient-creation" && (
          <section aria-label={t`New patient`} className="mform">
            <div className="span-2">
              <TextInput
                label={t`Name`}
                required
                characterRule
                value={draft.name ?? ""}
                error={fieldError("name")}
                onBlur={() => leave("name")}
                onChange={(name) => editDraft({ name })}
              />
            </div>
            <TextInput
              label={t`Patient ID`}
              required
              characterRule
              value={draft.uniqueId ?? ""}
              error={fieldError("uniqueId")}
              onBlur={() => leave("uniqueId")}
              onChange={(uniqueId) => editDraft({ uniqueId })}
            />
            <TextInput
              label={t`Birthdate`}
              required
              type="date"
              value={draft.birthdate ?? ""}
              error={fieldError("birthdate")}
              onBlur={() => leave("birthdate")}
              onChange={(birthdate) => editDraft({ birthdate: birthdate || null })}
            />
            <Select
              label={t`Gender`}
              required
              value={draft.gender === null ? "" : String(draft.gender)}
              placeholder={t`Choose`}
              options={Object.values(Sex).map((g) => ({ value: String(g), label: i18n._(sexNames[g]) }))}
              error={fieldError("gender")}
              onChange={(g) => editDraft({ gender: Number(g) as Sex })}
            />
            <Select<Language>
              label={t`Language`}
              required
              value={draft.lang ?? ""}
              placeholder={t`Choose`}
              options={PatientLanguages.map((l) => ({ value: l, label: i18n._(languageNames[l]) }))}
              error={fieldError("lang")}
              onChange={(lang) => editDraft({ lang })}
            />
            <div className="span-2">
              {patient ? (
                <p className="alert alert-success">{t`Patient ${patient.name} created.`}</p>
              ) : (
                <button type="button" className="btn btn-primary" onClick={() => void createPatient()}>{t`Create patient`}</button>
              )}
            </div>
          </section>
        )}
        {step.kind === "test-selection" && (
          <fieldset className="wizard-tests">
            <legend>{t`Choose the tests`}</legend>
            {patientLine}
            {ALL_TESTS.map((type) => (
              <label key={type} className="row">
                <input
                  type="checkbox"
                  checked={state.tests.includes(type)}
                  onChange={(e) =>
                    chooseTests(
                      e.target.checked
                        ? ALL_TESTS.filter((x) => x === type || state.tests.includes(x))
                        : state.tests.filter((x) => x !== type),
                    )
                  }
                />
                {i18n._(testTypeNames[type])}
              </label>
            ))}
          </fieldset>
        )}
        {current && (
          <section aria-label={i18n._(testTypeNames[current.type])}>
            <h3>{t`Test ${current.index + 1} of ${state.tests.length}: ${i18n._(testTypeNames[current.type])}`}</h3>
            {patientLine}
            {current.type === TestType.Perimetry ? (
              <div className="mform">
                <PerimetryFields
                  config={settings[current.index]!.perimetry}
                  context={configContext}
                  change={(c: ConfigChange) =>
                    setTestSettings(current.index, { perimetry: applyConfigChange(settings[current.index]!.perimetry, c, configContext) })
                  }
                />
              </div>
            ) : (
              <Select
                label={t`Eye`}
                required
                value={String(settings[current.index]!.eye)}
                options={(current.type === TestType.Amsler
                  ? amslerEyes(configContext.mode)
                  : editing
                    ? [Eye.Right, Eye.Left]
                    : [Eye.Right, Eye.Left, Eye.Both]
                ).map((e) => ({ value: String(e), label: i18n._(eyeNames[e]) }))}
                onChange={(v) => setTestSettings(current.index, { eye: Number(v) as Eye })}
              />
            )}
          </section>
        )}
        {step.kind === "summary" && (
          <section aria-label={t`Summary`}>
            <h3>{t`Summary`}</h3>
            <p>
              {t`Patient`}: <strong>{patient?.name ?? state.patientId}</strong>
              {patient && <span className="muted"> {patient.uniqueId}</span>}
            </p>
            <ol className="wizard-summary">
              {state.tests.map((type, i) => {
                const p = settings[i]!.perimetry;
                const parts = [
                  i18n._(testTypeNames[type]),
                  i18n._(eyeNames[type === TestType.Perimetry ? p.eye : settings[i]!.eye]),
                  ...(type === TestType.Perimetry ? [patternLabel[p.pattern], i18n._(strategyNames[p.strategy])] : []),
                ];
                return <li key={type}>{parts.join(" · ")}</li>;
              })}
            </ol>
          </section>
        )}
        {failed && (
          <p className="alert alert-error" role="alert">
            {failed}
          </p>
        )}
      </div>
    </Modal>
  );
}

/** An existing examination's settings as the wizard edits them (perimetry: its configuration over the defaults). */
function settingsOf(x: Examination): TestSettings {
  const base = openMeasurementForm({ mode: "edit", variant: "newer" }).config;
  const c = x.config;
  return {
    eye: x.eye,
    perimetry:
      c === null
        ? { ...base, eye: x.eye }
        : {
            ...base,
            eye: x.eye,
            pattern: c.pattern,
            strategy: c.strategy,
            stimuliUpdate: c.stimuliUpdate,
            stimuliSize: c.stimuliSize,
            stimuliShowtime: c.stimuliShowtime,
            sorsStage: c.sorsStage,
            playSound: c.playSound,
            trackGaze: c.trackGaze,
            audioGuide: c.audioGuide,
          },
  };
}
