import { describe, expect, it } from "vitest";
import { RegulatoryRegion, Sex } from "../../core/model/enums.ts";
import { birthdateWindow, validateBirthdate } from "../../core/rules/birthdate.ts";
import { birthdateFilter, birthdateFilterOptions } from "../../core/rules/birthdate-filter.ts";
import { euCountryCodes, regulatoryRegionForCountry } from "../../core/rules/regulatory-region.ts";
import { patientPayload, validatePatientForm, type PatientDraft } from "../../core/rules/patient-form.ts";

// "Birthdate no later than today plus 366 days and no earlier than 99 years ago." (accounts seed §5)
describe("birthdate window (accounts seed §5, §9 'Birthdate window: 99 years back, 366 days ahead.')", () => {
  it("is computed from the today passed in", () => {
    expect(birthdateWindow("2026-11-22")).toEqual({ earliest: "1927-11-22", latest: "2027-11-23" });
    expect(birthdateWindow("2024-02-29")).toEqual({ earliest: "1925-02-28", latest: "2025-03-01" });
  });
  it("accepts the edges and refuses a day beyond either", () => {
    const today = "2026-11-22";
    expect(validateBirthdate("1927-11-22", today)).toBeUndefined();
    expect(validateBirthdate("2027-11-23", today)).toBeUndefined();
    expect(validateBirthdate("1927-11-21", today)?.key).toBe("birthdateTooEarly");
    expect(validateBirthdate("2027-11-24", today)?.key).toBe("birthdateTooLate");
  });
  it("is required and must be a real date", () => {
    expect(validateBirthdate(null, "2026-11-22")?.key).toBe("required");
    expect(validateBirthdate("2023-02-29", "2026-11-22")?.key).toBe("birthdateInvalid");
    expect(validateBirthdate("22/11/1990", "2026-11-22")?.key).toBe("birthdateInvalid");
  });
});

// "Patient search birthdate filter: day 01-31, month 01-12, year 1901 to the current year; it applies only when all
//  three are chosen." (accounts seed §5)
describe("birthdate filter (accounts seed §5)", () => {
  it("'day 01-31, month 01-12, year 1901 to the current year'", () => {
    const o = birthdateFilterOptions(2026);
    expect([o.days[0], o.days.at(-1), o.days.length]).toEqual(["01", "31", 31]);
    expect([o.months[0], o.months.at(-1), o.months.length]).toEqual(["01", "12", 12]);
    expect([o.years[0], o.years.at(-1), o.years.length]).toEqual(["1901", "2026", 126]);
  });
  it("'it applies only when all three are chosen'", () => {
    expect(birthdateFilter({ day: "05", month: "03", year: "1980" }, 2026)).toBe("1980-03-05");
    expect(birthdateFilter({ day: "05", month: "03", year: null }, 2026)).toBeNull();
    expect(birthdateFilter({ day: null, month: "03", year: "1980" }, 2026)).toBeNull();
    expect(birthdateFilter({ day: "05", month: null, year: "1980" }, 2026)).toBeNull();
  });
  it("parts outside the options do not filter", () => {
    expect(birthdateFilter({ day: "32", month: "03", year: "1980" }, 2026)).toBeNull();
    expect(birthdateFilter({ day: "05", month: "13", year: "1980" }, 2026)).toBeNull();
    expect(birthdateFilter({ day: "05", month: "03", year: "1900" }, 2026)).toBeNull();
    expect(birthdateFilter({ day: "05", month: "03", year: "2027" }, 2026)).toBeNull();
  });
});

// "Regulatory region derives from country: an EU country gives MDR, otherwise UK, BR, US or default FDA. A list of
//  28 country codes serves the EU check." (accounts seed §6)
describe("regulatory region from country (accounts seed §6)", () => {
  it("'A list of 28 country codes serves the EU check.'", () => {
    expect(euCountryCodes).toHaveLength(28);
    expect(new Set(euCountryCodes).size).toBe(28);
  });
  it.each([
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
  ])("'an EU country gives MDR' (%s)", (code) => expect(regulatoryRegionForCountry(code)).toBe(RegulatoryRegion.MDR));
  it("'otherwise UK, BR, US or default FDA'", () => {
    expect(regulatoryRegionForCountry("GB")).toBe(RegulatoryRegion.UK);
    expect(regulatoryRegionForCountry("BR")).toBe(RegulatoryRegion.BR);
    expect(regulatoryRegionForCountry("US")).toBe(RegulatoryRegion.FDA);
    expect(regulatoryRegionForCountry("CH")).toBe(RegulatoryRegion.FDA);
    expect(regulatoryRegionForCountry(null)).toBe(RegulatoryRegion.FDA);
    expect(regulatoryRegionForCountry(" de ")).toBe(RegulatoryRegion.MDR);
  });
});

// "Patient form: name, uniqueId, gender, lang and birthdate all required. [...] Name and uniqueId trimmed before
//  sending." (accounts seed §5)
describe("patient form (accounts seed §5)", () => {
  const today = "2026-11-22";
  const good: PatientDraft = { name: "  Ana Lima ", uniqueId: " ID-7 ", gender: Sex.Female, lang: "bp", birthdate: "1970-05-01" };
  it("'name, uniqueId, gender, lang and birthdate all required'", () => {
    const errors = validatePatientForm({ name: " ", uniqueId: null, gender: null, lang: null, birthdate: null }, today);
    expect(Object.keys(errors).sort()).toEqual(["birthdate", "gender", "lang", "name", "uniqueId"]);
    expect(Object.values(errors).every((e) => e?.key === "required")).toBe(true);
  });
  it("'Name and uniqueId trimmed before sending.'", () => {
    expect(patientPayload(good, today)).toEqual({
      name: "Ana Lima",
      uniqueId: "ID-7",
      gender: Sex.Female,
      lang: "bp",
      birthdate: "1970-05-01",
    });
  });
  it("name and uniqueId follow the text rule; the birthdate its window", () => {
    expect(validatePatientForm({ ...good, name: "Ana <b>" }, today)).toHaveProperty("name.key", "specialCharacters");
    expect(validatePatientForm({ ...good, birthdate: "1900-01-01" }, today)).toHaveProperty("birthdate.key", "birthdateTooEarly");
    expect(patientPayload({ ...good, uniqueId: "a/b" }, today)).toBeUndefined();
  });
});
