CREATE TABLE `_cms_locks` (
	`target` text PRIMARY KEY NOT NULL,
	`token` text NOT NULL,
	`user` integer,
	`lockedAt` integer NOT NULL,
	`heartbeatAt` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `_cms_versions` ADD `autosave` integer DEFAULT 0 NOT NULL;