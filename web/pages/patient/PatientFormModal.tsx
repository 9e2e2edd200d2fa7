import { useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import type { Patient } from "../../../core/model/patient.ts";
import type { Language, Sex } from "../../../core/model/enums.ts";
import { isApiError } from "../../../core/model/contract/index.ts";
import { patientPayload, validatePatientForm, type PatientDraft } from "../../../core/rules/patient-form.ts";
import { birthdateWindow } from "../../../core/rules/birthdate.ts";
import { patientLocales } from "../../i18n/locales.ts";
import { languageNames, sexNames } from "../../i18n/names.ts";
import { ruleDescriptor } from "../../i18n/rule-messages.ts";
import { useClient } from "../../state/client.ts";
import { todayIso } from "../../state/today.ts";
import { Modal } from "../../ui/Modal.tsx";
import { Select } from "../../ui/Select.tsx";
import { TextInput } from "../../ui/TextInput.tsx";

const draftOf = (p?: Patient): PatientDraft => ({
  name: p?.name ?? "",
  uniqueId: p?.uniqueId ?? "",
  gender: p?.gender ?? null,
  lang: p?.lang ?? null,
  birthdate: p?.birthdate ?? "",
});

/**
 * Create or edit a patient. "Patient form: two steps. The first save click shows a double-confirmation warning; the
 * second submits. Editing any field resets the confirmation and clears the error." (accounts seed §4)
 */
export function PatientFormModal({ patient, onClose, onSaved }: { patient?: Patient; onClose: () => void; onSaved: (p: Patient) => void }) {
  const { t, i18n } = useLingui();
  const client = useClient();
  const today = todayIso();
  const window = birthdateWindow(today);
  const [draft, setDraft] = useState<PatientDraft>(draftOf(patient));
  const [confirming, setConfirming] = useState(false);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const errors = touched ? validatePatientForm(draft, today) : {};

  const edit = (change: Partial<PatientDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    setConfirming(false);
    setServerError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    const payload = patientPayload(draft, today);
    if (!payload) return;
    if (!confirming) {
      setConfirming(true);
      return;
    }
    setBusy(true);
    try {
      const saved = await client.patients.save(payload, patient?.id);
      onSaved(saved);
    } catch (error) {
      setServerError(isApiError(error) ? error.message : t`Something went wrong. Try again or refresh the browser.`);
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };

  const title = patient ? t`Edit patient` : t`Create patient`;
  return (
    <Modal title={title} onClose={onClose}>
      <form onSubmit={submit} noValidate aria-label={title}>
        {serverError && (
          <div className="alert alert-error" role="alert">
            <strong>{patient ? t`Couldn't save the patient` : t`Couldn't create a patient`}</strong> {serverError}
          </div>
        )}
        <TextInput
          label={t`Name`}
          required
          characterRule
          value={draft.name ?? ""}
          onChange={(name) => edit({ name })}
          error={ruleDescriptor(errors.name)}
          autoComplete="off"
        />
        <TextInput
          label={t`Patient ID`}
          required
          characterRule
          value={draft.uniqueId ?? ""}
          onChange={(uniqueId) => edit({ uniqueId })}
          error={ruleDescriptor(errors.uniqueId)}
          autoComplete="off"
        />
        <TextInput
          label={t`Birthdate`}
          type="date"
          required
          value={draft.birthdate ?? ""}
          min={window.earliest}
          max={window.latest}
          onChange={(birthdate) => edit({ birthdate })}
          error={ruleDescriptor(errors.birthdate)}
        />
        <Select<string>
          label={t`Gender`}
          required
          value={draft.gender === null ? "" : String(draft.gender)}
          placeholder={t`Choose…`}
          options={([0, 1, 2] as Sex[]).map((s) => ({ value: String(s), label: i18n._(sexNames[s]) }))}
          onChange={(v) => edit({ gender: Number(v) as Sex })}
          error={errors.gender && i18n._(ruleDescriptor(errors.gender)!)}
        />
        <Select<Language>
          label={t`Patient language`}
          required
          value={draft.lang ?? ""}
          placeholder={t`Choose…`}
          options={patientLocales.map((l) => ({ value: l, label: i18n._(languageNames[l]) }))}
          onChange={(lang) => edit({ lang })}
          error={errors.lang && i18n._(ruleDescriptor(errors.lang)!)}
        />
        {confirming && (
          <div className="alert alert-warning" role="alert">
            {t`Please check the patient's details. Click Save again to confirm.`}
          </div>
        )}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>{t`Cancel`}</button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? t`Saving…` : confirming ? t`Confirm and save` : t`Save`}
          </button>
        </div>
      </form>
    </Modal>
  );
}
