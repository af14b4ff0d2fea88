CREATE TABLE `_cms_changes` (
	`name` text PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Written by hand (drizzle-kit does not declare triggers): a version row counts as a change of its
-- document's table, so draft saves, publishes and discards reach the response cache (src/cache/change-counters.ts).
-- The sessions and two-factor tables count too: the kept session lookups of src/auth/session-cache.ts.
-- The config tables' own triggers are made at start from the config (src/db/sqlite/dialect.ts).
CREATE TRIGGER `_cms_changes_versions_insert` AFTER INSERT ON `_cms_versions` BEGIN
  INSERT INTO "_cms_changes" ("name", "version") VALUES (CASE NEW."kind" WHEN 'global' THEN '_global_' || NEW."slug" ELSE NEW."slug" END, 1)
  ON CONFLICT ("name") DO UPDATE SET "version" = "version" + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `_cms_changes_versions_update` AFTER UPDATE ON `_cms_versions` BEGIN
  INSERT INTO "_cms_changes" ("name", "version") VALUES (CASE NEW."kind" WHEN 'global' THEN '_global_' || NEW."slug" ELSE NEW."slug" END, 1)
  ON CONFLICT ("name") DO UPDATE SET "version" = "version" + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `_cms_changes_versions_delete` AFTER DELETE ON `_cms_versions` BEGIN
  INSERT INTO "_cms_changes" ("name", "version") VALUES (CASE OLD."kind" WHEN 'global' THEN '_global_' || OLD."slug" ELSE OLD."slug" END, 1)
  ON CONFLICT ("name") DO UPDATE SET "version" = "version" + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `_cms_changes_sessions_insert` AFTER INSERT ON `_cms_sessions` BEGIN
  INSERT INTO "_cms_changes" ("name", "version") VALUES ('_cms_sessions', 1) ON CONFLICT ("name") DO UPDATE SET "version" = "version" + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `_cms_changes_sessions_update` AFTER UPDATE ON `_cms_sessions` BEGIN
  INSERT INTO "_cms_changes" ("name", "version") VALUES ('_cms_sessions', 1) ON CONFLICT ("name") DO UPDATE SET "version" = "version" + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `_cms_changes_sessions_delete` AFTER DELETE ON `_cms_sessions` BEGIN
  INSERT INTO "_cms_changes" ("name", "version") VALUES ('_cms_sessions', 1) ON CONFLICT ("name") DO UPDATE SET "version" = "version" + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `_cms_changes_totp_insert` AFTER INSERT ON `_cms_totp` BEGIN
  INSERT INTO "_cms_changes" ("name", "version") VALUES ('_cms_totp', 1) ON CONFLICT ("name") DO UPDATE SET "version" = "version" + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `_cms_changes_totp_update` AFTER UPDATE ON `_cms_totp` BEGIN
  INSERT INTO "_cms_changes" ("name", "version") VALUES ('_cms_totp', 1) ON CONFLICT ("name") DO UPDATE SET "version" = "version" + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `_cms_changes_totp_delete` AFTER DELETE ON `_cms_totp` BEGIN
  INSERT INTO "_cms_changes" ("name", "version") VALUES ('_cms_totp', 1) ON CONFLICT ("name") DO UPDATE SET "version" = "version" + 1;
END;
