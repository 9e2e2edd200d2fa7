import { encode } from "uqr";

// A QR code drawn as one SVG path from uqr's module matrix (uqr, MIT): no image URL, so nothing outside the page's
// own markup is loaded, and it scales sharply on any screen. Dark modules on white with the four-module quiet zone
// the QR standard asks for, so phone cameras read it in dark mode too.

export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const { data } = encode(text, { ecc: "M", border: 4 });
  const n = data.length;
  let path = "";
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${n} ${n}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      style={{ background: "#fff", maxWidth: "100%", height: "auto" }}
    >
      <path d={path} fill="#000" />
    </svg>
  );
}
