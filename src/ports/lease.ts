/**
 * Short exclusive claims shared by every server on one state dir (or one database): the
 * scheduler takes one per job run so two servers never run a job twice.
 */
export interface LeaseStore {
  /**
   * Takes `key` for `ttlMs` when nobody holds it (or the holder's lease expired); true when
   * taken. `owner` identifies this server; taking a lease one already holds renews it.
   */
  acquire(key: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends a lease this owner holds; false when it is not held by `owner` any more. */
  renew(key: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up (nothing when another owner holds it). */
  release(key: string, owner: string): Promise<void>;
  /** Who holds `key` now (an expired lease counts as nobody), and until when (epoch ms). */
  holder(key: string): Promise<{ owner: string; expiresAt: number } | null>;
}
