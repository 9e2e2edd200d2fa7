import { useEffect, useState, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { useLingui } from "@lingui/react/macro";

/** "Printing: the button shows loading for about 2 s, renders a hidden print layout, then prints." (accounts seed §4) */
export const PRINT_LOADING_MS = 2_000;

type Phase = "idle" | "loading" | "printed";

/**
 * The print button. The print layout mounts (hidden on screen, the only thing on paper: print.css) as loading starts,
 * so it has drawn by the time the browser prints; it stays until the browser reports the print done.
 */
export function PrintButton({ renderPrint, loadingMs = PRINT_LOADING_MS }: { renderPrint: () => ReactNode; loadingMs?: number }) {
  const { t } = useLingui();
  const [phase, setPhase] = useState<Phase>("idle");

  useEffect(() => {
    if (phase !== "loading") return;
    const timer = setTimeout(() => {
      setPhase("printed");
      window.print();
    }, loadingMs);
    return () => clearTimeout(timer);
  }, [phase, loadingMs]);

  useEffect(() => {
    if (phase !== "printed") return;
    const done = () => setPhase("idle");
    window.addEventListener("afterprint", done);
    return () => window.removeEventListener("afterprint", done);
  }, [phase]);

  const loading = phase === "loading";
  return (
    <>
      <button
        type="button"
        className="btn"
        disabled={loading}
        aria-busy={loading}
        onClick={() => setPhase("loading")}
        data-testid="print-button"
      >
        {loading ? (
          <>
            <span className="spinner spinner-inline" aria-hidden="true" /> {t`Preparing the printout…`}
          </>
        ) : (
          t`Print`
        )}
      </button>
      {phase !== "idle" &&
        createPortal(
          <div className="print-root" data-testid="print-root">
            {renderPrint()}
          </div>,
          document.body,
        )}
    </>
  );
}
