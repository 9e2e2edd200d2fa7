import { PERIMETRY_PAGE_MAX } from "../../../core/model/contract/index.ts";
import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { invalid } from "../http/failure.ts";
import { preEncoded } from "../http/pre-encoded.ts";
import { decodeCursor, encodeCursor, resultsPageJson, resultsTotal } from "../store/results-page.ts";

// perimetry/page (our design): the organisation's results across patients (measurements and taken perimetry
// examinations, in one order, split by kind into entries and examinations), a page at a time, for exports. The first
// page (after: null) also counts the whole selection, for a progress bar; later pages only continue the keyset scan.

/** A day PostgreSQL's date accepts: the schema checks the shape (YYYY-MM-DD), this the calendar (no 30 February). */
const isCalendarDay = (day: string) => {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d); // rolls 30 February over into March, which the comparison below catches
  return y >= 1 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
};

export const perimetryPageHandlers: SomeHandlers<"perimetry.page"> = {
  "perimetry.page": async (call) => {
    const { filter, after, quantity } = call.body;
    if (quantity < 1 || quantity > PERIMETRY_PAGE_MAX) throw invalid("body.quantity", `must be between 1 and ${PERIMETRY_PAGE_MAX}`);
    for (const key of ["from", "to"] as const) {
      const day = filter[key];
      if (day !== null && !isCalendarDay(day)) throw invalid(`body.filter.${key}`, "not a day of the calendar");
    }
    const cursor = after === null ? null : decodeCursor(after);
    if (cursor === undefined) throw invalid("body.after", "not a cursor this server gave (send null or a page's next)");
    const org = claimsOf(call).organisationId;
    const page = await resultsPageJson(call.ctx.db, org, filter, cursor, quantity);
    const total = cursor === null ? await resultsTotal(call.ctx.db, org, filter) : null;
    // JSON text (http/pre-encoded.ts): a page is hundreds of stored results, passed through as PostgreSQL prints them.
    const next = page.next ? JSON.stringify(encodeCursor(page.next)) : "null";
    return {
      data: preEncoded(
        `{"entries":${page.entries},"examinations":${page.examinations},"patients":${page.patients},"next":${next},"total":${JSON.stringify(total)}}`,
      ),
      // An export reads the organisation page by page: the trail records each page's patients (audit/calls.ts).
      patientsRead: page.patientIds,
    };
  },
};
