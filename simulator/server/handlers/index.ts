import type { Handlers } from "../http/handler.ts";
import { accountHandlers } from "./accounts.ts";
import { appointmentHandlers } from "./appointments.ts";
import { deviceHandlers } from "./devices.ts";
import { enrolmentHandlers } from "./enrolment.ts";
import { auditHandlers } from "./audit.ts";
import { importHandlers } from "./import.ts";
import { dicomNetworkHandlers } from "./dicom-network.ts";
import { worklistHandlers } from "./worklist.ts";
import { pacsHandlers } from "./pacs.ts";
import { patientHandlers } from "./patients.ts";
import { perimetryHandlers } from "./perimetry.ts";
import { perimetryPageHandlers } from "./perimetry-page.ts";
import { templateHandlers } from "./templates.ts";
import { ssoHandlers } from "./sso.ts";
import { secondFactorHandlers } from "./second-factor.ts";
import { homeHandlers } from "./home.ts";
import { reviewHandlers } from "./review.ts";

/** One handler for every call of the contract (the type makes a missing one a compile error). */
export const handlers: Handlers = {
  ...accountHandlers,
  ...patientHandlers,
  ...perimetryHandlers,
  ...perimetryPageHandlers,
  ...deviceHandlers,
  ...enrolmentHandlers,
  ...auditHandlers,
  ...appointmentHandlers,
  ...templateHandlers,
  ...importHandlers,
  ...dicomNetworkHandlers,
  ...worklistHandlers,
  ...pacsHandlers,
  ...ssoHandlers,
  ...secondFactorHandlers,
  ...homeHandlers,
  ...reviewHandlers,
};
