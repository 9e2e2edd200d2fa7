import { adherence, clinicDate } from "../../../core/home/index.ts";
import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { notFound } from "../http/failure.ts";
import { bindProgramme, endProgramme } from "../home/binding.ts";
import * as home from "../store/home.ts";
import { getPatient } from "../store/patients.ts";
import { nowIso } from "./write.ts";

// Home programmes (issue 31 §1, §3; core/model/contract/home.ts): prescribe one (binding the headset), list a
// patient's, end one ("returned": the headset came back), and a programme's adherence on the clinic's today.

export const homeHandlers: SomeHandlers<"home.programmeCreate" | "home.programmes" | "home.programmeEnd" | "home.adherence"> = {
  "home.programmeCreate": async (call) => {
    const claims = claimsOf(call);
    return { data: await bindProgramme(call.ctx, claims.organisationId, claims.sub, call.body) };
  },
  "home.programmes": async (call) => {
    const org = claimsOf(call).organisationId;
    if (!(await getPatient(call.ctx.db, org, call.query.patientId))) throw notFound("Patient", "query.patientId");
    return { data: await home.programmesOfPatient(call.ctx.db, org, call.query.patientId) };
  },
  "home.programmeEnd": async (call) => ({
    data: await endProgramme(call.ctx, claimsOf(call).organisationId, call.query.id, call.body.reason),
  }),
  "home.adherence": async (call) => {
    const p = await home.programmeById(call.ctx.db, claimsOf(call).organisationId, call.query.id);
    if (!p) throw notFound("Home programme");
    const rules = home.rulesOf(p);
    // Our choice: an ended programme is counted as on its last day (the sessions after a return were never due).
    const now = nowIso(call.ctx);
    const today = clinicDate(rules, p.endedAt !== null && p.endedAt < now ? p.endedAt : now);
    const { uploads } = await home.storedResults(call.ctx.db, p);
    const a = adherence(rules, uploads, today);
    return {
      data: {
        programmeId: p.id,
        patientId: p.patientId,
        today,
        due: a.due,
        done: a.done,
        missed: a.missed,
        partial: a.partial,
        rate: a.rate,
      },
    };
  },
};
