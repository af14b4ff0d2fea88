CREATE TABLE "_cms_changes" (
	"name" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Written by hand (drizzle-kit does not declare functions or triggers). cms_count_change(name): the
-- statement-level trigger of each config table (made at start from the config, src/db/postgres/dialect.ts).
-- cms_count_version_change(): a version row counts as a change of its document's table.
CREATE FUNCTION cms_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "_cms_changes" ("name", "version") VALUES (TG_ARGV[0], 1)
  ON CONFLICT ("name") DO UPDATE SET "version" = "_cms_changes"."version" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION cms_count_version_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO "_cms_changes" ("name", "version")
  VALUES (CASE r."kind" WHEN 'global' THEN '_global_' || r."slug" ELSE r."slug" END, 1)
  ON CONFLICT ("name") DO UPDATE SET "version" = "_cms_changes"."version" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "_cms_changes" AFTER INSERT OR UPDATE OR DELETE ON "_cms_versions" FOR EACH ROW EXECUTE FUNCTION cms_count_version_change();
--> statement-breakpoint
CREATE TRIGGER "_cms_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "_cms_sessions" FOR EACH STATEMENT EXECUTE FUNCTION cms_count_change('_cms_sessions');
--> statement-breakpoint
CREATE TRIGGER "_cms_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "_cms_totp" FOR EACH STATEMENT EXECUTE FUNCTION cms_count_change('_cms_totp');
