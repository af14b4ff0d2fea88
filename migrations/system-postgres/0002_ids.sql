CREATE TABLE "_cms_ids" (
	"table" text PRIMARY KEY NOT NULL,
	"last" bigint NOT NULL
);
--> statement-breakpoint
-- Written by hand (drizzle-kit does not declare functions): the next id of a config table, taken inside
-- the inserting transaction, so a failed insert rolls it back and leaves no gap (src/db/postgres/system-schema.ts).
CREATE FUNCTION cms_next_id(t text) RETURNS bigint LANGUAGE sql VOLATILE AS $$
  INSERT INTO "_cms_ids" ("table", "last") VALUES (t, 1)
  ON CONFLICT ("table") DO UPDATE SET "last" = "_cms_ids"."last" + 1
  RETURNING "last"
$$;
