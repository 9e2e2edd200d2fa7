import { cloneElement, useEffect, useId, useRef, useState, type ReactElement } from "react";

/** "Tooltip delay 200 ms" (accounts seed §9). */
export const tooltipDelayMs = 200;

/** Shows `text` 200 ms after the pointer or focus reaches the child; Escape hides it. */
export function Tooltip({ text, children }: { text: string; children: ReactElement<Record<string, unknown>> }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const show = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(true), tooltipDelayMs);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setOpen(false);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the wrapper hears its trigger's hover, focus and Escape (events bubble from the focusable child)
    <span
      className="tooltip-anchor"
      onMouseEnter={show}
      onMouseLeave={hide}
      onFocus={show}
      onBlur={hide}
      onKeyDown={(e) => {
        if (e.key === "Escape") hide();
      }}
    >
      {cloneElement(children, { "aria-describedby": id })}
      <span id={id} role="tooltip" className={open ? "tooltip" : "visually-hidden"}>
        {text}
      </span>
    </span>
  );
}
