CREATE TABLE `_cms_audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` text NOT NULL,
	`action` text NOT NULL,
	`collection` text,
	`global` text,
	`document` integer,
	`user` integer,
	`apiKey` integer,
	`via` text NOT NULL,
	`ip` text,
	`changes` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `_cms_audit_log_at_idx` ON `_cms_audit_log` (`at`);--> statement-breakpoint
CREATE INDEX `_cms_audit_log_document_idx` ON `_cms_audit_log` (`collection`,`document`);