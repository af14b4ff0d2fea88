CREATE TABLE "_cms_locks" (
	"target" text PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"user" integer,
	"lockedAt" bigint NOT NULL,
	"heartbeatAt" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "_cms_versions" ADD COLUMN "autosave" integer DEFAULT 0 NOT NULL;