import { useEffect, useState } from "react";

/** "Inputs are debounced 500 ms." (accounts seed §5, patient search) */
export const searchDebounceMs = 500;

/** The value, once it has stayed unchanged for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
