// dcmjs ships no type declarations: the part the OPV export and its tests use.
declare module "dcmjs" {
  type Naturalized = Record<string, unknown> & { _meta?: Record<string, unknown> };
  interface DicomDictInstance {
    dict: Record<string, unknown>;
    meta: Record<string, unknown>;
    write(options?: Record<string, unknown>): ArrayBuffer;
  }
  const dcmjs: {
    data: {
      datasetToBuffer(dataset: Naturalized): Buffer;
      datasetToDict(dataset: Naturalized): DicomDictInstance;
      DicomMessage: { readFile(buffer: ArrayBuffer, options?: Record<string, unknown>): DicomDictInstance };
      DicomMetaDictionary: {
        naturalizeDataset(dict: Record<string, unknown>): Naturalized;
        denaturalizeDataset(dataset: Naturalized): Record<string, unknown>;
        uid(): string;
      };
    };
    log: { setLevel?(level: string): void; level?: unknown; disableAll?(): void };
  };
  export default dcmjs;
}

// dcmjs-dimse's own declarations are an ES module's; it is CommonJS, read through its default export.
declare module "dcmjs-dimse" {
  type Emitter = { on(event: string, listener: (...args: any[]) => void): void };
  const dimse: {
    Client: new () => Emitter & {
      addRequest(request: unknown): void;
      send(host: string, port: number, callingAeTitle: string, calledAeTitle: string, opts?: Record<string, unknown>): void;
    };
    requests: { CStoreRequest: new (datasetOrFile: string) => Emitter };
    /** loglevel's logger. */
    log: { setLevel(level: "trace" | "debug" | "info" | "warn" | "error" | "silent"): void };
  };
  export default dimse;
}
