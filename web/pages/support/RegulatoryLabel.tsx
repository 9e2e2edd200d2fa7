import { useLingui } from "@lingui/react/macro";
import { useRead } from "../../state/use-read.ts";

/**
 * The product label (drawn, not a bitmap, so it stays sharp when printed). Its version is the running server's
 * (GET version), so the label and the support e-mail name the release the clinic actually runs (issue 21: the page
 * said the seed's 1.1.5 while the server answered 0.1.0).
 */
export function RegulatoryLabel() {
  const { t } = useLingui();
  const version = useRead("version", {});
  const releaseVersion = version.data?.version ?? "…";
  return (
    <svg
      role="img"
      aria-label={t`Product label: Isopter software, version ${releaseVersion}`}
      viewBox="0 0 320 120"
      width="320"
      height="120"
      style={{ border: "1px solid var(--grey-300)", borderRadius: 6, background: "#fff" }}
    >
      <text x="16" y="30" fontSize="18" fontWeight="700" fill="#1b1f23">
        Isopter
      </text>
      <text x="16" y="52" fontSize="12" fill="#3f464d">
        Visual-field testing software
      </text>
      <rect x="16" y="66" width="34" height="20" fill="none" stroke="#1b1f23" />
      <text x="33" y="81" fontSize="12" textAnchor="middle" fill="#1b1f23">
        MD
      </text>
      <text x="60" y="81" fontSize="12" fill="#1b1f23">
        Version {releaseVersion}
      </text>
      <text x="16" y="106" fontSize="10" fill="#3f464d">
        Read the user manual before use.
      </text>
      <circle cx="286" cy="40" r="18" fill="none" stroke="#1b1f23" strokeWidth="2" />
      <text x="286" y="46" fontSize="18" fontWeight="700" textAnchor="middle" fill="#1b1f23">
        i
      </text>
    </svg>
  );
}
