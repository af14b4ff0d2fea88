CREATE TABLE `_cms_jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`action` text NOT NULL,
	`kind` text NOT NULL,
	`slug` text NOT NULL,
	`parent` integer NOT NULL,
	`at` integer NOT NULL,
	`state` text NOT NULL,
	`error` text,
	`lockedUntil` integer,
	`createdAt` text NOT NULL,
	`finishedAt` text
);
--> statement-breakpoint
CREATE INDEX `_cms_jobs_due_idx` ON `_cms_jobs` (`state`,`at`);--> statement-breakpoint
CREATE INDEX `_cms_jobs_parent_idx` ON `_cms_jobs` (`kind`,`slug`,`parent`);--> statement-breakpoint
CREATE TABLE `_cms_login_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `_cms_login_attempts_key_idx` ON `_cms_login_attempts` (`key`,`at`);--> statement-breakpoint
CREATE TABLE `_cms_schema_migrations` (
	`name` text PRIMARY KEY NOT NULL,
	`appliedAt` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `_cms_schema_migrations_name_idx` ON `_cms_schema_migrations` (`name`);--> statement-breakpoint
CREATE TABLE `_cms_sessions` (
	`tokenHash` text PRIMARY KEY NOT NULL,
	`userId` integer NOT NULL,
	`csrfToken` text NOT NULL,
	`expiresAt` integer NOT NULL,
	`createdAt` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `_cms_sessions_user_idx` ON `_cms_sessions` (`userId`);--> statement-breakpoint
CREATE TABLE `_cms_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`slug` text NOT NULL,
	`parent` integer NOT NULL,
	`version` text NOT NULL,
	`status` text NOT NULL,
	`latest` integer DEFAULT 0 NOT NULL,
	`createdAt` text NOT NULL,
	`updatedAt` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `_cms_versions_parent_idx` ON `_cms_versions` (`kind`,`slug`,`parent`,`id`);