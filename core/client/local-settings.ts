import { Result, type Schema } from "effect";
import { ClientSettingsSchema, clientSettingsDefaults, type ClientSettings } from "../model/client-settings.ts";
import { decodeJson } from "../model/decode.ts";
import { LanguageSchema, type Language } from "../model/enums.ts";
import { PatientTestConfigurationsSchema, type PatientTestConfigurations } from "../model/local-storage.ts";
import type { MeasurementConfig } from "../model/measurement-config.ts";
import { StorageKeys, type KeyValueStore } from "../ports.ts";

// The other local-storage keys of the seeds: language, client settings, patient test configurations and the v2
// scheduling key (scheduling seed §3 "Browser storage"). Reads decode and fall back to defaults; writes encode JSON.

const decodeOr = <T>(text: string | null, schema: Schema.Codec<T, unknown, never, never>, fallback: T): T => {
  if (text === null) return fallback;
  const decoded = decodeJson(schema, text);
  return Result.isSuccess(decoded) ? decoded.success : fallback;
};

/** The interface language, stored raw; English when unset or unknown. */
export const readLanguage = (store: KeyValueStore): Language => {
  const raw = store.get(StorageKeys.local.language);
  return decodeOr(raw === null ? null : JSON.stringify(raw), LanguageSchema as never, "en" as Language);
};
export const writeLanguage = (store: KeyValueStore, language: Language): void => store.set(StorageKeys.local.language, language);

export const readClientSettings = (store: KeyValueStore): ClientSettings =>
  decodeOr(store.get(StorageKeys.local.clientSettings), ClientSettingsSchema as never, { ...clientSettingsDefaults } as ClientSettings);

export function updateClientSettings(store: KeyValueStore, change: Partial<ClientSettings>): ClientSettings {
  const next = { ...readClientSettings(store), ...change };
  store.set(StorageKeys.local.clientSettings, JSON.stringify(next));
  return next;
}

const readConfigurations = (store: KeyValueStore): PatientTestConfigurations =>
  decodeOr(
    store.get(StorageKeys.local.patientTestConfigurations),
    PatientTestConfigurationsSchema as never,
    {} as PatientTestConfigurations,
  );

/** The configuration last used for a patient (form prefill), if stored. */
export const readPatientTestConfiguration = (store: KeyValueStore, patientId: string): MeasurementConfig | undefined =>
  readConfigurations(store)[patientId];

export function writePatientTestConfiguration(store: KeyValueStore, patientId: string, config: MeasurementConfig): void {
  store.set(StorageKeys.local.patientTestConfigurations, JSON.stringify({ ...readConfigurations(store), [patientId]: config }));
}

/** The v2 scheduling key: true selects the appointment variant. */
export const readSchedulingV2 = (store: KeyValueStore): boolean => store.get(StorageKeys.local.schedulingV2) === "true";
export const writeSchedulingV2 = (store: KeyValueStore, on: boolean): void => store.set(StorageKeys.local.schedulingV2, JSON.stringify(on));
