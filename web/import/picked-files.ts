import type { ImportSource } from "../../core/client/index.ts";

// What the user chose or dropped for "Import results": files, or whole folders walked to their files, each named by its
// path below what was chosen ("exam-2019/OD/1.dcm"), as `isopter import DIR` names them. Hidden files and DICOMDIR
// indexes are left out, as the CLI leaves them out. The bytes are read only when their batch is sent.

export interface PickedFile {
  readonly name: string;
  readonly size: number;
  readonly file: File;
}

const wanted = (name: string) => {
  const base = name.slice(name.lastIndexOf("/") + 1);
  return base !== "" && !base.startsWith(".") && base.toUpperCase() !== "DICOMDIR";
};

const inOrder = (files: PickedFile[]) => files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** From an <input type="file"> (several files, or a folder with webkitdirectory: its files carry their path). */
export function fromFileList(list: FileList | readonly File[]): PickedFile[] {
  return inOrder(
    [...list]
      .map((file) => ({ name: file.webkitRelativePath || file.name, size: file.size, file }))
      .filter((f) => f.name.split("/").every((part) => !part.startsWith(".")) && wanted(f.name)),
  );
}

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/** Every entry of a folder: readEntries answers in chunks (Chromium: 100) until it answers none. */
async function entriesOf(folder: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = folder.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const chunk = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (chunk.length === 0) return all;
    all.push(...chunk);
  }
}

async function walk(entry: FileSystemEntry, out: PickedFile[]): Promise<void> {
  if (entry.name.startsWith(".")) return;
  if (entry.isFile) {
    const name = entry.fullPath.replace(/^\//, "") || entry.name;
    if (!wanted(name)) return;
    const file = await fileOf(entry as FileSystemFileEntry);
    out.push({ name, size: file.size, file });
    return;
  }
  if (entry.isDirectory) for (const child of await entriesOf(entry as FileSystemDirectoryEntry)) await walk(child, out);
}

/**
 * From a drop: dropped folders are walked (webkitGetAsEntry). The entries are taken from the event at once, since the
 * browser empties its DataTransfer once the handler returns; the walk goes on after it.
 */
export function fromDrop(data: DataTransfer): Promise<PickedFile[]> {
  const items = [...data.items].filter((i) => i.kind === "file");
  const entries = items.map((i) => i.webkitGetAsEntry?.() ?? null);
  if (entries.length === 0 || entries.some((e) => e === null)) return Promise.resolve(fromFileList(data.files));
  return (async () => {
    const out: PickedFile[] = [];
    for (const entry of entries) await walk(entry!, out);
    return inOrder(out);
  })();
}

/** The files as core/client's import reads them: the bytes when their batch goes. */
export const importSources = (files: readonly PickedFile[]): ImportSource[] =>
  files.map((f) => ({ name: f.name, bytes: async () => new Uint8Array(await f.file.arrayBuffer()) }));
