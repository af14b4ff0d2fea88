/**
 * Preloaded by `bun test` (bunfig.toml): after the process's last test, the PostgreSQL databases its tests
 * made and left behind are dropped (test/support/postgres.ts), so a run leaves the cluster as it found it.
 */
import { afterAll } from 'bun:test';
import { dropLeftoverDatabases } from '../support/postgres.ts';

afterAll(() => dropLeftoverDatabases());
