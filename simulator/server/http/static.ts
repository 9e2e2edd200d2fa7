import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, normalize, sep } from "node:path";

// The built web app (dist/web). Files are served as they are; every other path gets index.html so the app's router
// owns it (its not-found page included). Without a build, a plain page says how to make one.

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".pdf": "application/pdf",
  ".mp4": "video/mp4",
  ".webmanifest": "application/manifest+json",
  ".txt": "text/plain; charset=utf-8",
};

const isFile = async (path: string) => (await stat(path).catch(() => null))?.isFile() ?? false;

export const staticSite = (root: string) => async (req: IncomingMessage, res: ServerResponse) => {
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { allow: "GET, HEAD" }).end();
    return;
  }
  const index = join(root, "index.html");
  if (!(await isFile(index))) {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      "<!doctype html><title>Isopter</title><h1>Isopter server is running</h1>" +
        "<p>The web app is not built: run <code>npm run build:web</code> (it writes dist/web), then reload. " +
        'The API answers under <a href="/api/openapi.json">/api/</a>.</p>',
    );
    return;
  }
  let pathname = "/";
  try {
    pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
  } catch {
    pathname = "/";
  }
  const candidate = normalize(join(root, pathname));
  const inside = candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
  const file = inside && (await isFile(candidate)) ? candidate : index;
  const hashed = file !== index && /\/assets\//.test(file);
  res.writeHead(200, {
    "content-type": types[extname(file)] ?? "application/octet-stream",
    "cache-control": hashed ? "public, max-age=31536000, immutable" : "no-cache",
  });
  if (req.method === "HEAD") res.end();
  else createReadStream(file).pipe(res);
};
