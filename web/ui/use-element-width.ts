import { useLayoutEffect, useRef, useState } from "react";

/**
 * The width of an element (CSS pixels, floored), following resizes: undefined until measured, null when the element
 * has no layout (hidden, or a DOM without layout such as happy-dom's). Measured in a layout effect, so what draws at
 * the width is built once, at its real width, before the first paint.
 */
export function useElementWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number | null | undefined] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState<number | null | undefined>(undefined);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const w = Math.floor(el.getBoundingClientRect().width);
      // A width once measured stays when the element loses its layout for a moment.
      setWidth((prev) => (w > 0 ? w : (prev ?? null)));
    };
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
