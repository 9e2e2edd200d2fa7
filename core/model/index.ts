// core/model: every entity and enumeration of both seeds as effect Schemas (types come from the schemas),
// decoding with field-naming errors, the live socket messages and (in ./contract) the API contract.
export * from "./enums.ts";
export * from "./ids.ts";
export * from "./wire.ts";
export * from "./decode.ts";
export * from "./patient.ts";
export * from "./measurement-config.ts";
export * from "./measurement-result.ts";
export * from "./measurement.ts";
export * from "./device.ts";
export * from "./enrolment.ts";
export * from "./appointment.ts";
export * from "./examination.ts";
export * from "./amsler.ts";
export * from "./acuity.ts";
export * from "./colour-vision.ts";
export * from "./running-test.ts";
export * from "./template.ts";
export * from "./user.ts";
export * from "./organisation.ts";
export * from "./access-token.ts";
export * from "./progression.ts";
export * from "./client-settings.ts";
export * from "./local-storage.ts";
export * from "./live.ts";
export * from "./live-data.ts";
