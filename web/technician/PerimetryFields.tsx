import { useLingui } from "@lingui/react/macro";
import type { MeasurementConfig } from "../../core/model/measurement-config.ts";
import {
  patternLabel,
  type Eye,
  type Pattern,
  type Showtime,
  type SorsLocations,
  type StimuliUpdate,
  type StimulusSize,
  type Strategy,
} from "../../core/model/enums.ts";
import type { ConfigChange } from "../../core/rules/config-reducer.ts";
import type { ConfigContext } from "../../core/rules/form-context.ts";
import { measurementFormOptions } from "../../core/rules/form-options.ts";
import { validateMeasurementConfig } from "../../core/rules/required-fields.ts";
import { ruleDescriptor } from "../i18n/rule-messages.ts";
import { eyeNames, strategyNames } from "../i18n/names.ts";
import { Select } from "../ui/Select.tsx";
import { Toggle } from "../ui/Toggle.tsx";
import { sizeName, stimuliUpdateName } from "./names.ts";

/**
 * The perimetry settings of the measurement form and of the wizard's perimetry step: every select and toggle with the
 * option lists, locks and tutorial rule of core/rules (measurementFormOptions); edits go through applyConfigChange.
 */
export function PerimetryFields({
  config,
  context,
  change,
}: {
  config: MeasurementConfig;
  context: ConfigContext;
  change: (c: ConfigChange) => void;
}) {
  const { t, i18n } = useLingui();
  const options = measurementFormOptions(config, context);
  const errors = validateMeasurementConfig(config, context);
  const num = <V extends number>(value: string) => Number(value) as V;
  const errorText = (field: keyof MeasurementConfig) => {
    const d = ruleDescriptor(errors[field]);
    return d && field !== "patientId" ? i18n._(d) : undefined;
  };
  return (
    <>
      <Select
        label={t`Eye`}
        required
        value={String(config.eye)}
        error={errorText("eye")}
        options={options.eyes.map((e) => ({ value: String(e), label: i18n._(eyeNames[e]) }))}
        onChange={(v) => change({ field: "eye", value: num<Eye>(v) })}
      />
      <Select
        label={t`Pattern`}
        required
        value={String(config.pattern)}
        error={errorText("pattern")}
        options={options.patterns.map((p) => ({ value: String(p), label: patternLabel[p] }))}
        onChange={(v) => change({ field: "pattern", value: num<Pattern>(v) })}
      />
      <Select
        label={t`Strategy`}
        required
        value={String(config.strategy)}
        error={errorText("strategy")}
        options={options.strategies.map((s) => ({ value: String(s), label: i18n._(strategyNames[s]) }))}
        onChange={(v) => change({ field: "strategy", value: num<Strategy>(v) })}
      />
      {options.sorsLocations.length > 0 ? (
        <Select
          label={t`SORS locations`}
          value={String(config.sorsStage)}
          error={errorText("sorsStage")}
          options={options.sorsLocations.map((n) => ({ value: String(n), label: String(n) }))}
          onChange={(v) => change({ field: "sorsStage", value: num<SorsLocations>(v) })}
        />
      ) : null}
      <Select
        label={t`Stimuli update`}
        required
        value={String(config.stimuliUpdate)}
        error={errorText("stimuliUpdate")}
        options={options.stimuliUpdates.map((u) => ({ value: String(u), label: stimuliUpdateName(u, t`Adaptive`) }))}
        onChange={(v) => change({ field: "stimuliUpdate", value: num<StimuliUpdate>(v) })}
      />
      <Select
        label={t`Stimulus size`}
        required
        value={String(config.stimuliSize)}
        error={errorText("stimuliSize")}
        options={options.sizes.map((s) => ({ value: String(s), label: sizeName(s, i18n) }))}
        onChange={(v) => change({ field: "stimuliSize", value: num<StimulusSize>(v) })}
      />
      <Select
        label={t`Stimulus showtime`}
        required
        value={String(config.stimuliShowtime)}
        error={errorText("stimuliShowtime")}
        options={options.showtimes.map((s) => ({ value: String(s), label: `${s} ms` }))}
        onChange={(v) => change({ field: "stimuliShowtime", value: num<Showtime>(v) })}
      />
      <div className="span-2 toggles">
        <Toggle label={t`Play sound`} checked={config.playSound} onChange={(v) => change({ field: "playSound", value: v })} />
        <Toggle label={t`Track gaze`} checked={config.trackGaze} onChange={(v) => change({ field: "trackGaze", value: v })} />
        <Toggle label={t`Audio guide`} checked={config.audioGuide} onChange={(v) => change({ field: "audioGuide", value: v })} />
        <Toggle
          label={t`Tutorial`}
          checked={config.tutorial}
          disabled={!options.tutorialEnabled && !config.tutorial}
          onChange={(v) => change({ field: "tutorial", value: v })}
        />
      </div>
      {!options.tutorialEnabled && (
        <p className="span-2 field-hint">{t`The tutorial needs the audio guide, gaze tracking and a patient whose language is English.`}</p>
      )}
    </>
  );
}
