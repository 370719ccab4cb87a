/**
 * What a small store's contract suite is given, per test: a store over empty backing data,
 * `open()` for another store over the same data (a second server, or this one after a restart;
 * memory: the same store), and `cleanup`.
 */
export interface StoreHarness<S> {
  store: S;
  open: () => S;
  cleanup?: () => Promise<void>;
}

export interface StoreContractOptions {
  /**
   * Separate stores over one backing coordinate their read-modify-writes (a database). The state
   * dir's files assume one server per dir for those, so its suites leave the cross-server
   * write races out (rather than skip them).
   */
  sharedWriters?: boolean;
}
