import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright";

// The users manuals as PDF documents ("The user manual has tabs Part 1 and Part 2 in an embedded document; the document
// depends on the market (FDA, MDR, UK) and, for MDR, on country (ES and DE have own documents, others a default)";
// "Help PDFs in English, Spanish, German", accounts seed §2, §9). The sources are the HTML pages in docs/manual/<doc>/;
// Debian's Chromium prints each to A4 with page numbers into web/public/manuals/<doc>/part-N.pdf, which the web app
// embeds. Run `npm run build:manuals` after editing a source and commit the PDFs.

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const sources = join(root, "docs", "manual");
const out = join(root, "web", "public", "manuals");

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage();
  for (const doc of readdirSync(sources).sort()) {
    for (const file of readdirSync(join(sources, doc))
      .filter((f) => /^part-\d\.html$/.test(f))
      .sort()) {
      await page.goto(pathToFileURL(join(sources, doc, file)).href, { waitUntil: "load" });
      const pdf = await page.pdf({
        format: "A4",
        printBackground: true,
        margin: { top: "18mm", bottom: "18mm", left: "16mm", right: "16mm" },
        displayHeaderFooter: true,
        headerTemplate: "<span></span>",
        // Chromium fills pageNumber and totalPages; the title is the document's own.
        footerTemplate:
          '<div style="font-size:8px;width:100%;text-align:center;color:#555"><span class="title"></span> · <span class="pageNumber"></span> / <span class="totalPages"></span></div>',
        tagged: true,
        outline: true,
      });
      const target = join(out, doc, file.replace(/\.html$/, ".pdf"));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, pdf);
      console.log(`${target.slice(root.length + 1)}: ${pdf.length} bytes`);
    }
  }
} finally {
  await browser.close();
}
