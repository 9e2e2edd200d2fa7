/** The five LED states of the battery answer, drawn; decorative because the answer text lists them. */
export function BatteryLedFigure() {
  const leds: Array<{ color: string; blink?: boolean; charging?: boolean; label: string }> = [
    { color: "var(--battery-ok)", label: "> 20 %" },
    { color: "var(--battery-low)", blink: true, label: "< 20 %" },
    { color: "var(--battery-full)", label: "100 %" },
    { color: "var(--battery-charging)", charging: true, label: "< 98 %" },
    { color: "var(--battery-low)", charging: true, label: "< 20 %" },
  ];
  return (
    <svg aria-hidden="true" width={leds.length * 72} height="64" viewBox={`0 0 ${leds.length * 72} 64`} className="led-figure">
      {leds.map((led, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a constant figure, never reordered
        <g key={i} transform={`translate(${i * 72 + 36} 22)`}>
          <circle r="12" fill={led.color} className={led.blink ? "led-blink" : undefined} />
          {led.charging && <path d="M-3 -7 L3 -1 L-1 -1 L3 7 L-4 1 L0 1 Z" fill="#fff" />}
          <text y="34" textAnchor="middle" fontSize="12" fill="var(--grey-700)">
            {led.label}
          </text>
        </g>
      ))}
    </svg>
  );
}
