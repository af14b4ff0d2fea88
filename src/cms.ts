/**
 * The running instance: sanitized config, database, clock, event stream and secret. Built once by
 * `createCMS` (create-cms.ts), shared by REST, the Local API, the job runner and the command line. This file
 * holds the type only, so that every layer may name it without reaching what the wiring imports.
 */
import type { SanitizedConfig, StorageAdapter } from './config/types.ts';
import type { Store } from './db/store.ts';
import type { EventStream } from './events/change-events.ts';
import type { Clock } from './clock.ts';
import type { BackgroundTasks } from './background-tasks.ts';
import type { Logger } from './logger.ts';

export type CMS = {
  config: SanitizedConfig;
  /** The database, whatever the engine (src/db/store.ts). */
  store: Store;
  clock: Clock;
  events: EventStream;
  secret: string;
  log: Logger;
  storage: StorageAdapter;
  /** Work done after the answer (mail): src/background-tasks.ts. */
  background: BackgroundTasks;
  /** Things to stop on close (timers, job loop, pending sends), run in reverse order. */
  closers: (() => void | Promise<void>)[];
  close(): Promise<void>;
};
