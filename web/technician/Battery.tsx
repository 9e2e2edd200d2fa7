import { useLingui } from "@lingui/react/macro";
import { batteryDisplay, batteryLed } from "../../core/device/battery.ts";
import type { Battery as BatteryLevel } from "../../core/model/device.ts";

/** One battery (VR headset or clicker): the seed's display band as 0-6 bars in its colour, the level, and the LED. */
export function Battery({ which, battery }: { which: "vr" | "clicker"; battery: BatteryLevel }) {
  const { t } = useLingui();
  const display = batteryDisplay(battery.level);
  const led = battery.level == null ? null : batteryLed(battery.level, battery.charging);
  const name = which === "vr" ? t`VR` : t`Clicker`;
  const level = battery.level == null ? t`unknown` : `${Math.round(battery.level)}%`;
  const label = battery.charging ? t`${name} battery ${level}, charging` : t`${name} battery ${level}`;
  return (
    <span className="battery" data-colour={display.colour} data-band={display.band} role="img" aria-label={label} title={label}>
      <span aria-hidden="true">{name}</span>
      <span className="battery-cells" aria-hidden="true">
        {Array.from({ length: 6 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: six fixed cells, the position is the identity
          <span key={i} className="battery-cell" data-on={i < display.bars} />
        ))}
      </span>
      <span aria-hidden="true">
        {level}
        {battery.charging ? " ⚡" : ""}
      </span>
      {led && <span className="led" data-colour={led.colour} data-flashing={led.flashing} aria-hidden="true" />}
    </span>
  );
}
