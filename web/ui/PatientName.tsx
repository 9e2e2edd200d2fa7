import { useLingui } from "@lingui/react/macro";
import { usePatient } from "../state/patients.ts";

/**
 * Whose test it is: the patient's name and ID ("The patient is named wherever a test is about to run or has run").
 * `withId` adds the clinic's patient ID, which tells two patients of the same name apart.
 */
export function PatientName({ patientId, withId = true, className }: { patientId: string; withId?: boolean; className?: string }) {
  const { t } = useLingui();
  const lookup = usePatient(patientId);
  const text =
    lookup.status === "found"
      ? withId
        ? `${lookup.patient.name} · ${lookup.patient.uniqueId}`
        : lookup.patient.name
      : lookup.status === "missing"
        ? t`Unknown patient`
        : t`Loading patient…`;
  return (
    <span className={className} data-patient-id={patientId} data-testid="patient-name" data-user-text title={text}>
      {text}
    </span>
  );
}

/** The patient's name as a plain string for sentences (dialog texts, notices); a placeholder until it is known. */
export function usePatientLabel(patientId: string | null | undefined): string {
  const { t } = useLingui();
  const lookup = usePatient(patientId);
  if (!patientId) return "";
  if (lookup.status === "found") return `${lookup.patient.name} (${lookup.patient.uniqueId})`;
  return lookup.status === "missing" ? t`Unknown patient` : t`Loading patient…`;
}
