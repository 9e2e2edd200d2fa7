import { RegulatoryRegion } from "../model/enums.ts";

/**
 * "A list of 28 country codes serves the EU check." (accounts seed §6). Our reading: the 28 member states of the EU
 * as it stood until 2020 (ISO 3166-1 alpha-2, GR for Greece), which includes GB; GB is decided before the EU check.
 */
export const euCountryCodes: readonly string[] = [
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
  "GB",
];

/**
 * "Regulatory region derives from country: an EU country gives MDR, otherwise UK, BR, US or default FDA."
 * (accounts seed §6): GB gives UK, BR gives BR, US and anything else FDA. Codes are matched case-insensitively.
 */
export const regulatoryRegionForCountry = (country: string | null | undefined): RegulatoryRegion => {
  const code = (country ?? "").trim().toUpperCase();
  if (code === "GB") return RegulatoryRegion.UK;
  if (code === "BR") return RegulatoryRegion.BR;
  if (code === "US") return RegulatoryRegion.FDA;
  if (euCountryCodes.includes(code)) return RegulatoryRegion.MDR;
  return RegulatoryRegion.FDA;
};
