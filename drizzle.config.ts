/**
 * drizzle-kit configuration for the CMS's own (system) tables.
 *
 * Generate a migration after changing src/db/system-schema.ts with
 *   bun scripts/generate-embedded.ts --drizzle-generate [--name my_change]
 * which runs `drizzle-kit generate` with this file and then refreshes
 * src/db/system-migrations.generated.ts (the SQL the binary embeds).
 */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/system-schema.ts',
  out: './migrations/system',
  breakpoints: true,
});
