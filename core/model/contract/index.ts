import type { EndpointSpec, Method, RequestOfSpec, ResponseOfSpec, WireRequestOfSpec } from "./endpoint.ts";
import * as accounts from "./accounts.ts";
import * as appointments from "./appointments.ts";
import * as audit from "./audit.ts";
import * as devices from "./devices.ts";
import * as imports from "./import.ts";
import * as dicomNetwork from "./dicom-network.ts";
import * as patients from "./patients.ts";
import * as perimetry from "./perimetry.ts";
import * as templates from "./templates.ts";
import * as sso from "./sso.ts";
import * as secondFactor from "./second-factor.ts";
import * as home from "./home.ts";
import * as review from "./review.ts";

// The API contract: every call of both seeds' call tables (scheduling §7, accounts §7), the calls they name without a
// shape, and our template calls, as data. The server mounts each at /api/{path}; see ./envelope.ts for the body.

export * from "./endpoint.ts";
export * from "./errors.ts";
export * from "./envelope.ts";
export * from "./request.ts";
export * from "./shared.ts";
export {
  PatientSearchBodySchema,
  PatientSearchPageSchema,
  type PatientSearchBody,
  type PatientSearchPage,
} from "./patients.ts";
export {
  MeasurementNotesBodySchema,
  MeasurementFlagsBodySchema,
  MeasurementPatchBodySchema,
  PerimetryUploadBodySchema,
  PerimetryPageFilterSchema,
  PerimetryPageBodySchema,
  PerimetryPageSchema,
  PERIMETRY_PAGE_MAX,
  type MeasurementPatchBody,
  type PerimetryUploadBody,
  type PerimetryPageFilter,
  type PerimetryPageBody,
  type PerimetryPage,
} from "./perimetry.ts";
export {
  DeviceUpdateBodySchema,
  EnrolBodySchema,
  type EnrolBody,
  DragAndDropPerimetryBodySchema,
  DragAndDropAppointmentBodySchema,
  LaneRevisionsSchema,
  type DeviceUpdateBody,
  type DragAndDropPerimetryBody,
  type DragAndDropAppointmentBody,
  type LaneRevisions,
} from "./devices.ts";
export {
  AppointmentBodySchema,
  AppointmentRegisterBodySchema,
  ExaminationUpdateBodySchema,
  ExaminationRegisterBodySchema,
  type AppointmentBody,
  type AppointmentRegisterBody,
  type ExaminationUpdateBody,
} from "./appointments.ts";
export { AuditSearchBodySchema, AuditPageSchema, type AuditSearchBody, type AuditPage } from "./audit.ts";
export {
  SecondFactorStepSchema,
  SecondFactorStatusSchema,
  TotpEnrolmentSchema,
  type SecondFactorStep,
  type SecondFactorStatus,
  type TotpEnrolment,
} from "./second-factor.ts";
export {
  HomeProgrammeBodySchema,
  HomeProgrammeSchema,
  HomeScheduleSchema,
  HomeAdherenceSchema,
  type HomeProgrammeBody,
  type HomeProgrammeView,
  type HomeSchedule,
  type HomeAdherenceView,
  type HomeEndReason,
} from "./home.ts";
export {
  REVIEW_FLAG_KINDS,
  REVIEW_PAGE_MAX,
  ReviewItemSchema,
  ReviewCountsSchema,
  ReviewQueuePageSchema,
  HomeAdherenceRowSchema,
  type ReviewFlagKind,
  type ReviewFlagReason,
  type ReviewFlag,
  type ReviewState,
  type ReviewItemView,
  type ReviewQueueQuery,
  type ReviewQueuePage,
  type ReviewCounts,
  type HomeAdherenceRow,
} from "./review.ts";
export { UserInviteBodySchema, UserInviteAnswerSchema, VersionSchema, type UserInviteAnswer } from "./accounts.ts";

const byName = <const L extends ReadonlyArray<EndpointSpec>>(list: L) =>
  Object.fromEntries(list.map((e) => [e.name, e])) as { readonly [E in L[number] as E["name"]]: E };

/** Every call, keyed by name (e.g. contract["patient.search"]). */
export const contract = byName([
  // accounts §7
  accounts.login,
  accounts.logout,
  accounts.checkToken,
  accounts.passwordResetRequest,
  accounts.passwordResetConfirm,
  accounts.passwordResetCheck,
  accounts.passwordChange,
  accounts.userSignup,
  accounts.userInvite,
  accounts.userUpdate,
  accounts.userDelete,
  accounts.userAll,
  accounts.userProfile,
  accounts.organisationCurrent,
  accounts.version,
  // patients (both §7)
  patients.patientGet,
  patients.patientAll,
  patients.patientSearch,
  patients.patientRegister,
  patients.patientUpdate,
  patients.patientRestore,
  patients.patientTrash,
  patients.patientDelete,
  patients.patientAllTrashed,
  // perimetry
  perimetry.perimetryGet,
  perimetry.perimetryAll,
  perimetry.perimetryRecent,
  perimetry.perimetryRegister,
  perimetry.perimetryUpdate,
  perimetry.perimetryRestore,
  perimetry.perimetryTrash,
  perimetry.perimetryDelete,
  perimetry.perimetryAllTrashed,
  perimetry.perimetryUpload,
  perimetry.perimetryPage,
  // devices
  devices.deviceAll,
  devices.deviceUpdate,
  devices.deviceStandalone,
  devices.deviceStandaloneData,
  devices.deviceDragAndDropPerimetry,
  devices.deviceDragAndDropAppointment,
  devices.deviceEnrolments,
  devices.deviceEnrol,
  devices.deviceReenrol,
  devices.deviceRevoke,
  // appointments and examinations
  appointments.appointmentAll,
  appointments.appointmentAllTrashed,
  appointments.appointmentRegisterWithExaminations,
  appointments.appointmentUpdate,
  appointments.appointmentTrash,
  appointments.appointmentDelete,
  appointments.appointmentRestore,
  appointments.appointmentInsertExaminations,
  appointments.appointmentReorderExaminations,
  appointments.examinationAll,
  appointments.examinationUpdate,
  appointments.examinationDelete,
  appointments.examinationTrash,
  appointments.examinationRegister,
  // templates (our design)
  templates.templateAll,
  templates.templateCreate,
  templates.templateUpdate,
  templates.templateCopy,
  templates.templateDelete,
  // our design: the audit trail (issue 15 §6)
  audit.auditSearch,
  // our design: results taken elsewhere (issue 29)
  imports.resultsImport,
  // our design: the clinic's DICOM network (issue 29)
  dicomNetwork.dicomSettings,
  dicomNetwork.dicomSettingsUpdate,
  dicomNetwork.dicomEcho,
  dicomNetwork.worklistQuery,
  dicomNetwork.pacsFetch,
  // our design: single sign-on over OpenID Connect (issue 33)
  sso.ssoSettings,
  sso.ssoSettingsUpdate,
  sso.ssoSettingsDelete,
  sso.ssoLoginOptions,
  sso.ssoBegin,
  sso.ssoComplete,
  sso.ssoLogout,
  // our design: a second factor for password accounts (issue 33 item 2)
  secondFactor.secondFactorSignIn,
  secondFactor.secondFactorSignInEnrol,
  secondFactor.secondFactorSignInConfirm,
  secondFactor.secondFactorStatus,
  secondFactor.secondFactorEnrol,
  secondFactor.secondFactorConfirm,
  secondFactor.secondFactorDisable,
  secondFactor.secondFactorRequire,
  secondFactor.secondFactorUsers,
  secondFactor.secondFactorReset,
  // our design: home programmes (issue 31)
  home.homeProgrammeCreate,
  home.homeProgrammes,
  home.homeProgrammeEnd,
  home.homeAdherence,
  // our design: the review queue and the adherence list (issue 31 §2, §3)
  review.reviewQueue,
  review.reviewCounts,
  review.reviewMark,
  review.reviewNote,
  review.reviewRepeat,
  review.reviewBook,
  review.homeAdherenceList,
]);

export type Contract = typeof contract;
/** An endpoint name, e.g. "patient.search". */
export type Endpoint = keyof Contract;
export type RequestOf<E extends Endpoint> = RequestOfSpec<Contract[E]>;
export type WireRequestOf<E extends Endpoint> = WireRequestOfSpec<Contract[E]>;
export type ResponseOf<E extends Endpoint> = ResponseOfSpec<Contract[E]>;

export const endpoints: ReadonlyArray<EndpointSpec> = Object.values(contract);

const routeKey = (method: Method, path: string) => `${method} ${path}`;
const routes = new Map(endpoints.map((e) => [routeKey(e.method, e.path), e]));

/** The endpoint answering `method` at `path` (relative, no /api/ prefix, no query), if any. */
export const findEndpoint = (method: string, path: string): EndpointSpec | undefined =>
  routes.get(routeKey(method.toUpperCase() as Method, path.replace(/^\/+/, "")));
