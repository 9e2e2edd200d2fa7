import type { MeasurementConfig } from "../../core/model/measurement-config.ts";
import { defaultMeasurementConfig } from "../../core/rules/defaults.ts";
import type { ConfigContext } from "../../core/rules/form-context.ts";

export const createContext: ConfigContext = { mode: "create", variant: "older", patientLanguage: "en" };
export const config = (over: Partial<MeasurementConfig> = {}): MeasurementConfig => ({ ...defaultMeasurementConfig("older"), ...over });
