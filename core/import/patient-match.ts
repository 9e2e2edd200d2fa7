import type { Patient } from "../model/patient.ts";
import type { PatientIdentity } from "./imported-field.ts";

// Which of the clinic's patients a field belongs to (issue 29): "Patients are matched by Patient ID (with its issuer),
// else by name plus birth date. A patient is created only when nothing matches, and never twice. A conflict (same ID,
// different birth date or name) is refused and reported." Choices of ours where the issue is silent:
// - An ID counts when the file names no issuer or names one of the clinic's own (its organisation's name, or one the
//   importer lists): an ID from another issuer is another hospital's number and is not compared with ours.
// - Names compare as sets of words, whatever their order, case or accents ("WAGNER^Felix" is "Felix Wagner").
// - Two active patients with the same name and birth date: refused as ambiguous rather than guessed.
// - A patient in the bin still holds their ID: a field for them is refused, naming the bin, rather than creating a second.

export type PatientCandidate = Pick<Patient, "id" | "name" | "uniqueId" | "birthdate" | "trashedAt">;

export type PatientDecision =
  | { readonly kind: "matched"; readonly patient: PatientCandidate; readonly by: "id" | "name-birthdate" }
  | { readonly kind: "create" }
  | { readonly kind: "refused"; readonly reason: string };

/** Lower case, accents and punctuation dropped, the words in order: the form two spellings of one name share. */
export const nameKey = (name: string): string =>
  name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .sort()
    .join(" ");

export const sameName = (a: string, b: string): boolean => nameKey(a) === nameKey(b);

/** Whether the file's issuer is one of ours (none named counts as ours). */
export const ownIssuer = (issuer: string | null, ownIssuers: readonly string[]): boolean =>
  issuer === null || issuer.trim() === "" || ownIssuers.some((o) => o.trim().toLowerCase() === issuer.trim().toLowerCase());

/**
 * The decision for one field. `byId` is the clinic's patient holding the file's ID (when the ID counts), `byNameAndBirthdate`
 * the clinic's patients with the file's birth date whose name matches (the caller reads them; this function checks the
 * names again so that the rule stands in one place).
 */
export function decidePatient(
  identity: PatientIdentity,
  ownIssuers: readonly string[],
  byId: PatientCandidate | undefined,
  byBirthdate: readonly PatientCandidate[],
): PatientDecision {
  const idCounts = identity.id !== null && identity.id.trim() !== "" && ownIssuer(identity.issuer, ownIssuers);
  if (idCounts && byId) {
    const conflicts: string[] = [];
    if (identity.birthdate !== null && identity.birthdate !== byId.birthdate)
      conflicts.push(`birth date ${identity.birthdate} in the file, ${byId.birthdate} in Isopter`);
    if (identity.name !== null && nameKey(identity.name) !== "" && !sameName(identity.name, byId.name))
      conflicts.push(`name "${identity.name}" in the file, "${byId.name}" in Isopter`);
    if (conflicts.length > 0)
      return { kind: "refused", reason: `patient ID ${identity.id} is ${byId.name}'s, but ${conflicts.join(" and ")}` };
    if (byId.trashedAt !== null) return { kind: "refused", reason: `patient ID ${identity.id} is ${byId.name}'s, who is in the bin` };
    return { kind: "matched", patient: byId, by: "id" };
  }
  if (identity.name !== null && identity.birthdate !== null && nameKey(identity.name) !== "") {
    const same = byBirthdate.filter((p) => p.birthdate === identity.birthdate && sameName(p.name, identity.name!));
    const active = same.filter((p) => p.trashedAt === null);
    if (active.length > 1)
      return {
        kind: "refused",
        reason: `${active.length} patients are named ${identity.name} and born ${identity.birthdate}: give the patient ID`,
      };
    if (active.length === 1) return { kind: "matched", patient: active[0]!, by: "name-birthdate" };
    if (same.length > 0)
      return { kind: "refused", reason: `${identity.name}, born ${identity.birthdate}, is in the bin: restore the patient first` };
    return { kind: "create" };
  }
  if (idCounts) {
    const missing = [identity.name === null ? "name" : null, identity.birthdate === null ? "birth date" : null].filter(Boolean);
    return { kind: "refused", reason: `no patient has ID ${identity.id}, and without a ${missing.join(" and ")} none can be created` };
  }
  return {
    kind: "refused",
    reason:
      identity.id !== null
        ? `patient ID ${identity.id} was issued by ${identity.issuer}, not by this clinic, and the file gives no name and birth date to match`
        : "the file names no patient ID, and no name and birth date to match",
  };
}
