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

// dcmjs-dimse's own declarations are an ES module's; it is CommonJS, read through its default export. The members
// used: C-STORE (export --send), C-ECHO, worklist and Query/Retrieve C-FIND, C-GET, C-MOVE (the server's DICOM network)
// and the storage SCP a C-MOVE sends to. Datasets and responses are typed as far as the callers read them.
declare module "dcmjs-dimse" {
  type Emitter = { on(event: string, listener: (...args: any[]) => void): void };
  type Elements = Record<string, unknown>;
  interface DimseDataset {
    getElements(): Elements;
    getElement(tag: string): unknown;
    getDenaturalizedDataset?(): Record<string, unknown>;
    getTransferSyntaxUid(): string;
  }
  interface DimseResponse {
    getStatus(): number;
    getDataset(): DimseDataset | undefined;
  }
  interface DimseRequest extends Emitter {
    getAffectedSopClassUid?(): string;
  }
  interface FindRequestClass {
    new (...args: any[]): DimseRequest;
    createStudyFindRequest(elements: Elements, priority?: number): DimseRequest;
    createSeriesFindRequest(elements: Elements, priority?: number): DimseRequest;
    createImageFindRequest(elements: Elements, priority?: number): DimseRequest;
    createWorklistFindRequest(elements: Elements, priority?: number): DimseRequest;
  }
  interface MoveRequestClass {
    new (...args: any[]): DimseRequest;
    createStudyMoveRequest(destinationAet: string, studyInstanceUid: string, priority?: number): DimseRequest;
    createSeriesMoveRequest(destinationAet: string, studyInstanceUid: string, seriesInstanceUid: string, priority?: number): DimseRequest;
    createImageMoveRequest(
      destinationAet: string,
      studyInstanceUid: string,
      seriesInstanceUid: string,
      sopInstanceUid: string,
      priority?: number,
    ): DimseRequest;
  }
  interface GetRequestClass {
    new (...args: any[]): DimseRequest;
    createStudyGetRequest(studyInstanceUid: string, priority?: number): DimseRequest;
    createSeriesGetRequest(studyInstanceUid: string, seriesInstanceUid: string, priority?: number): DimseRequest;
    createImageGetRequest(studyInstanceUid: string, seriesInstanceUid: string, sopInstanceUid: string, priority?: number): DimseRequest;
  }
  const dimse: {
    Client: new () => Emitter & {
      addRequest(request: unknown): void;
      clearRequests?(): void;
      addAdditionalPresentationContext?(context: unknown): void;
      send(host: string, port: number, callingAeTitle: string, calledAeTitle: string, opts?: Record<string, unknown>): void;
    };
    Server: new (scpClass: unknown) => Emitter & { listen(port: number, opts?: Record<string, unknown>): void; close(): void };
    Scp: new (...args: any[]) => any;
    Dataset: new (elementsOrBuffer?: unknown, transferSyntaxUid?: string) => DimseDataset & Record<string, any>;
    association: Record<string, any>;
    requests: {
      CStoreRequest: new (datasetOrFile: unknown) => DimseRequest;
      CEchoRequest: new () => DimseRequest;
      CFindRequest: FindRequestClass;
      CMoveRequest: MoveRequestClass;
      CGetRequest: GetRequestClass;
    };
    responses: Record<string, any>;
    constants: Record<string, any>;
    /** loglevel's logger. */
    log: { setLevel(level: "trace" | "debug" | "info" | "warn" | "error" | "silent"): void };
  };
  export default dimse;
}
