-- Written by hand (drizzle-kit does not declare triggers): a session's once-a-minute "lastUsedAt" mark
-- (src/auth/sessions.ts) no longer counts as a change of `_cms_sessions`, so it does not drop every kept
-- session lookup (src/auth/kept-credentials.ts; the marked session's own entry is dropped when its mark is
-- due). An update of any other column still counts; a column added to the table later must be added here.
DROP TRIGGER `_cms_changes_sessions_update`;
--> statement-breakpoint
CREATE TRIGGER `_cms_changes_sessions_update` AFTER UPDATE OF "tokenHash", "userId", "csrfToken", "expiresAt", "createdAt", "id", "userAgent", "ip" ON `_cms_sessions` BEGIN
  INSERT INTO "_cms_changes" ("name", "version") VALUES ('_cms_sessions', 1) ON CONFLICT ("name") DO UPDATE SET "version" = "version" + 1;
END;
