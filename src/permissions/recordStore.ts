/** Where a list of the user's answers is kept (the editor's storage; memory in tests). */
export interface RecordStore<R> {
  load(): R[];
  save(records: R[]): void;
}
