CREATE TABLE `_cms_release_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`release` integer NOT NULL,
	`kind` text NOT NULL,
	`slug` text NOT NULL,
	`parent` integer NOT NULL,
	`action` text NOT NULL,
	`version` integer,
	`previousVersion` integer,
	`wasPublished` integer DEFAULT 0 NOT NULL,
	`createdAt` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `_cms_release_items_document_idx` ON `_cms_release_items` (`release`,`kind`,`slug`,`parent`);--> statement-breakpoint
CREATE INDEX `_cms_release_items_parent_idx` ON `_cms_release_items` (`kind`,`slug`,`parent`);--> statement-breakpoint
CREATE TABLE `_cms_releases` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`status` text NOT NULL,
	`publishAt` integer,
	`publishedAt` text,
	`publishedBy` integer,
	`errors` text,
	`revertOf` integer,
	`createdBy` integer,
	`createdAt` text NOT NULL,
	`updatedAt` text NOT NULL,
	`lockedUntil` integer
);
--> statement-breakpoint
CREATE INDEX `_cms_releases_due_idx` ON `_cms_releases` (`status`,`publishAt`);