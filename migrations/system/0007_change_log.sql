CREATE TABLE `_cms_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`type` text NOT NULL,
	`kind` text NOT NULL,
	`slug` text NOT NULL,
	`docId` integer NOT NULL,
	`draft` integer DEFAULT 0 NOT NULL,
	`deleted` text
);
--> statement-breakpoint
CREATE INDEX `_cms_events_at_idx` ON `_cms_events` (`at`);--> statement-breakpoint
-- Written by hand: a new log row counts as a change of `_cms_events`, so a process that follows the log
-- learns of rows written by another process through the change counters (src/realtime/change-feed.ts).
CREATE TRIGGER `_cms_changes_events_insert` AFTER INSERT ON `_cms_events` BEGIN
  INSERT INTO "_cms_changes" ("name", "version") VALUES ('_cms_events', 1) ON CONFLICT ("name") DO UPDATE SET "version" = "version" + 1;
END;
