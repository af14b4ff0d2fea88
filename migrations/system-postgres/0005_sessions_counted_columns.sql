-- Written by hand (drizzle-kit does not declare triggers): a session's once-a-minute "lastUsedAt" mark
-- (src/auth/sessions.ts) no longer counts as a change of "_cms_sessions", so it does not drop every kept
-- session lookup (src/auth/kept-credentials.ts; the marked session's own entry is dropped when its mark is
-- due). An update of any other column still counts; a column added to the table later must be added here.
DROP TRIGGER "_cms_changes" ON "_cms_sessions";
--> statement-breakpoint
CREATE TRIGGER "_cms_changes" AFTER INSERT OR UPDATE OF "tokenHash", "userId", "csrfToken", "expiresAt", "createdAt", "id", "userAgent", "ip" OR DELETE OR TRUNCATE ON "_cms_sessions" FOR EACH STATEMENT EXECUTE FUNCTION cms_count_change('_cms_sessions');
