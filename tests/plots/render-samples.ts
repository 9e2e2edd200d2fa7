// Writes every sample scene as SVG plus an index.html sheet, for looking at the plots by eye:
//   npx tsx tests/plots/render-samples.ts /tmp/isopter-plots
//   chromium --headless --no-sandbox --screenshot=/tmp/isopter-plots/sheet.png --window-size=1400,2400 file:///tmp/isopter-plots/index.html
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { toSvg } from "../../core/plots/svg.ts";
import { sampleScenes } from "./samples.ts";

const out = process.argv[2] ?? "/tmp/isopter-plots";
mkdirSync(out, { recursive: true });
const only = process.argv[3];
const cells: string[] = [];
for (const [name, scene] of Object.entries(sampleScenes())) {
  if (only && !name.includes(only)) continue;
  const svg = toSvg(scene);
  writeFileSync(join(out, `${name}.svg`), svg);
  cells.push(`<figure><figcaption>${name}</figcaption>${svg}</figure>`);
}
writeFileSync(
  join(out, "index.html"),
  `<!doctype html><meta charset="utf-8"><style>body{margin:8px;background:#eee;font:12px sans-serif}figure{display:inline-block;margin:6px;vertical-align:top;background:#fff;padding:4px}figcaption{color:#888}</style>${cells.join("\n")}`,
);
console.log(`${cells.length} scenes written to ${out}`);
