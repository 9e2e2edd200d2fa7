import { useOutletContext } from "react-router-dom";
import type { Patient } from "../../core/model/patient.ts";

/** What the patient layout hands to its child pages. */
export interface PatientContext {
  patient: Patient;
}
export const usePatient = () => useOutletContext<PatientContext>().patient;
