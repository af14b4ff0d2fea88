/**
 * drizzle-kit configuration for the system tables on PostgreSQL (the twin of drizzle.config.ts).
 * `bun scripts/generate-embedded.ts --drizzle-generate [--name my_change]` runs drizzle-kit with both files.
 */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/postgres/system-schema.ts',
  out: './migrations/system-postgres',
  breakpoints: true,
});
