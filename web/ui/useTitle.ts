import { useEffect } from "react";

/** Names the browser tab after the page (WCAG 2.4.2), e.g. "Settings · Isopter". */
export function useTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · Isopter`;
  }, [title]);
}
