export interface ThrowawayCluster {
  /** Superuser URL to database `postgres`, e.g. postgres://postgres@127.0.0.1:54321/postgres */
  url: string;
  port: number;
  /** Temp dir holding the data directory, the log and the unix socket. */
  dir: string;
  /** Stops the server (immediate mode) and deletes the temp dir. Safe to call twice. */
  stop(): Promise<void>;
}

/** bin directory of the highest installed PostgreSQL major version, or null. */
export function findPgBinDir(): string | null;

export function startThrowawayCluster(options?: { timeoutMs?: number }): Promise<ThrowawayCluster>;
