import { describe, expect, it } from "vitest";
import { memoryStore } from "../../adapters/storage/memory-storage.ts";
import {
  readClientSettings,
  readLanguage,
  readPatientTestConfiguration,
  readSchedulingV2,
  updateClientSettings,
  writeLanguage,
  writePatientTestConfiguration,
  writeSchedulingV2,
} from "../../core/client/index.ts";
import type { MeasurementConfig } from "../../core/model/measurement-config.ts";
import { StorageKeys } from "../../core/ports.ts";

describe("local settings (scheduling seed §3 'Browser storage')", () => {
  it("'Client settings: analysisExpanded, progressionChartExpanded (default true), historyExpanded, pattern'", () => {
    const store = memoryStore();
    expect(readClientSettings(store).progressionChartExpanded).toBe(true);
    updateClientSettings(store, { analysisExpanded: true });
    expect(readClientSettings(store)).toMatchObject({ analysisExpanded: true, progressionChartExpanded: true });
    store.set(StorageKeys.local.clientSettings, "{not json");
    expect(readClientSettings(store).analysisExpanded).toBe(false);
  });

  it("language, patient test configurations and the v2 scheduling key round-trip", () => {
    const store = memoryStore();
    expect(readLanguage(store)).toBe("en");
    writeLanguage(store, "de");
    expect(readLanguage(store)).toBe("de");
    store.set(StorageKeys.local.language, "klingon");
    expect(readLanguage(store)).toBe("en");
    const config: MeasurementConfig = {
      patientId: "p1",
      deviceSn: null,
      displayName: "Test",
      eye: 0,
      pattern: 2,
      strategy: 2,
      stimuliUpdate: 9999,
      stimuliSize: 5,
      stimuliShowtime: 200,
      sorsStage: 36,
      playSound: false,
      trackGaze: true,
      audioGuide: true,
      tutorial: false,
      notes: "",
    };
    writePatientTestConfiguration(store, "p1", config);
    expect(readPatientTestConfiguration(store, "p1")).toEqual(config);
    expect(readPatientTestConfiguration(store, "p2")).toBeUndefined();
    expect(readSchedulingV2(store)).toBe(false);
    writeSchedulingV2(store, true);
    expect(readSchedulingV2(store)).toBe(true);
  });
});
