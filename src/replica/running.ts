/**
 * The replica running in this process, by its instance's store, for what reports on it (`/health`):
 * a module of its own, so that reading the state loads none of the replication itself.
 */
import type { Store } from '../db/store.ts';

/** Past this lag the replica counts as behind (`/health` says degraded). */
export const DEGRADED_LAG_MS = 10_000;

export type Replica = {
  mode: 'async' | 'sync';
  /** True on PostgreSQL: the database is the server's to back up, the replica holds the uploads. */
  uploadsOnly: boolean;
  label: string;
  /** How far the replica trails: the age of the oldest transaction not on it yet (0: none). */
  lagMs(): number;
  /** The newest transaction on the replica. */
  lastTransaction(): number;
  lastSnapshotAt(): number | null;
  puts(): number;
  /** Rounds that could not ship, since the start. */
  failures(): number;
  /** The commit time of the oldest snapshot kept (the oldest moment a restore reaches), as of the last snapshot. */
  oldestRestorableAt(): number | null;
  lastError(): string | null;
  /** Ships what is queued now (and a snapshot when one is due). */
  ship(): Promise<void>;
  close(): Promise<void>;
};

const running = new WeakMap<Store, Replica>();

export const noteReplica = (store: Store, replica: Replica) => void running.set(store, replica);
export const forgetReplica = (store: Store) => void running.delete(store);

/** The replica of a running instance, by its store (null: none configured, or not started in this process). */
export const replicaOf = (store: Store): Replica | null => running.get(store) ?? null;
