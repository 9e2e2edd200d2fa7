import type { RegulatoryRegion } from "../../../core/model/enums.ts";

export type ManualDocument = "fda" | "uk" | "mdr" | "mdr-es" | "mdr-de";

/**
 * "the document depends on the market (FDA, MDR, UK) and, for MDR, on country (ES and DE have own documents, others a
 * default)" (accounts seed §2). A market without a manual (BR) or no profile gives null: the page shows an error.
 */
export function manualDocument(profile: { market: RegulatoryRegion; country: string | null } | null | undefined): ManualDocument | null {
  if (!profile) return null;
  switch (profile.market) {
    case "FDA":
      return "fda";
    case "UK":
      return "uk";
    case "MDR": {
      const country = profile.country?.toUpperCase();
      return country === "ES" ? "mdr-es" : country === "DE" ? "mdr-de" : "mdr";
    }
    default:
      return null;
  }
}

/** "Help PDFs in English, Spanish, German" (accounts seed §9): the Spanish and German documents are in their language. */
export const manualLanguage: Record<ManualDocument, string> = { fda: "en", uk: "en", mdr: "en", "mdr-es": "es", "mdr-de": "de" };

/** The generated PDF (npm run build:manuals from docs/manual/). */
export const manualUrl = (doc: ManualDocument, part: 1 | 2) => `/manuals/${doc}/part-${part}.pdf`;
