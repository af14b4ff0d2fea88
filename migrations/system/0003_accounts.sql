CREATE TABLE `_cms_recovery_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`userId` integer NOT NULL,
	`codeHash` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `_cms_recovery_codes_user_idx` ON `_cms_recovery_codes` (`userId`,`codeHash`);--> statement-breakpoint
CREATE TABLE `_cms_reset_tokens` (
	`tokenHash` text PRIMARY KEY NOT NULL,
	`userId` integer NOT NULL,
	`kind` text NOT NULL,
	`expiresAt` integer NOT NULL,
	`createdAt` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `_cms_reset_tokens_user_idx` ON `_cms_reset_tokens` (`userId`);--> statement-breakpoint
CREATE TABLE `_cms_totp` (
	`userId` integer PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`enabledAt` integer,
	`lastStep` integer
);
--> statement-breakpoint
ALTER TABLE `_cms_sessions` ADD `id` text;--> statement-breakpoint
ALTER TABLE `_cms_sessions` ADD `lastUsedAt` integer;--> statement-breakpoint
ALTER TABLE `_cms_sessions` ADD `userAgent` text;--> statement-breakpoint
ALTER TABLE `_cms_sessions` ADD `ip` text;--> statement-breakpoint
-- Sessions from before this migration get a public id (a prefix of the sha256 of their random token, which
-- reveals nothing of it) and their creation as last use.
UPDATE "_cms_sessions" SET "id" = substr("tokenHash", 1, 32), "lastUsedAt" = "createdAt" WHERE "id" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `_cms_sessions_id_idx` ON `_cms_sessions` (`id`);