import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { Failure, notFound } from "../http/failure.ts";
import { echo } from "../dicom/echo.ts";
import { dicomSettingsOf, saveDicomSettings } from "../dicom/settings.ts";
import { nowIso } from "./write.ts";

// dicom/settings and dicom/echo (issue 29): the organisation's worklist provider and PACS, and a verification of
// either. The settings' AE titles, hosts and ports are checked by the contract's schema before they are stored.
export const dicomNetworkHandlers: SomeHandlers<"dicom.settings" | "dicom.settingsUpdate" | "dicom.echo"> = {
  "dicom.settings": async (call) => ({ data: await dicomSettingsOf(call.ctx.db, claimsOf(call).organisationId) }),
  "dicom.settingsUpdate": async (call) => {
    const { organisationId } = claimsOf(call);
    const sn = call.body.worklist?.deviceSn ?? null;
    if (sn !== null) {
      const own = await call.ctx.db.query("select 1 from devices where organisation_id = $1 and device_sn = $2", [organisationId, sn]);
      if (own.length === 0) throw notFound(`Headset ${sn}`, "body.worklist.deviceSn");
    }
    await saveDicomSettings(call.ctx.db, organisationId, call.body, nowIso(call.ctx));
    return { data: call.body };
  },
  "dicom.echo": async (call) => {
    const settings = await dicomSettingsOf(call.ctx.db, claimsOf(call).organisationId);
    const node = call.body.peer === "worklist" ? settings.worklist?.provider : settings.pacs?.node;
    if (!node)
      throw new Failure("not_found", `No ${call.body.peer === "worklist" ? "worklist provider" : "PACS"} is set for the organisation`);
    return { data: await echo(node) };
  },
};
