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
