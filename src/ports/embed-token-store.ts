/**
 * Embed tokens: let a page on another (allowlisted) origin talk to this server through
 * <hermes-chat>. Only a hash of each secret is stored.
 */
export interface EmbedTokenRecord {
  /** Public id (also the token's prefix); used to list and revoke. */
  id: string;
  /** The one origin the token works from, e.g. `https://docs.example.com`. */
  origin: string;
  /** When set, the token reaches this session only. */
  session_id: string | null;
  /** SHA-256 of the secret part, hex. */
  secret_hash: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface EmbedTokenStore {
  list(): Promise<EmbedTokenRecord[]>;
  get(id: string): Promise<EmbedTokenRecord | null>;
  /** Inserts or replaces by id. */
  put(record: EmbedTokenRecord): Promise<void>;
  /** Drops records for which `keep` is false (expired housekeeping). */
  prune(keep: (record: EmbedTokenRecord) => boolean): Promise<void>;
}
