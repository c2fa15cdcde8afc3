-- Every instance caches the caller of a session (platform/tenancy/callers.ts). A committed change to
-- what the session check reads is announced on 'caller_changes' as "<scope>:<id>", so each instance
-- forgets the affected callers (s = session, u = user, c = company, p = plan, * = everything).
CREATE FUNCTION "notify_caller_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb;
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('caller_changes', '*');
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN changed := to_jsonb(OLD); ELSE changed := to_jsonb(NEW); END IF;
  PERFORM pg_notify('caller_changes', TG_ARGV[0] || ':' || (changed ->> TG_ARGV[1]));
  IF TG_OP = 'UPDATE' AND (to_jsonb(OLD) ->> TG_ARGV[1]) IS DISTINCT FROM (changed ->> TG_ARGV[1]) THEN
    PERFORM pg_notify('caller_changes', TG_ARGV[0] || ':' || (to_jsonb(OLD) ->> TG_ARGV[1]));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "sessions_caller_change" AFTER UPDATE OF "revoked_at", "expires_at", "user_id" OR DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "notify_caller_change"('s', 'id');
--> statement-breakpoint
CREATE TRIGGER "users_caller_change" AFTER UPDATE OF "profile", "super", "all_ticket", "company_id" OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "notify_caller_change"('u', 'id');
--> statement-breakpoint
CREATE TRIGGER "user_queues_caller_change" AFTER INSERT OR UPDATE OR DELETE ON "user_queues"
  FOR EACH ROW EXECUTE FUNCTION "notify_caller_change"('u', 'user_id');
--> statement-breakpoint
CREATE TRIGGER "companies_caller_change" AFTER UPDATE OF "status", "due_date", "plan_id" OR DELETE ON "companies"
  FOR EACH ROW EXECUTE FUNCTION "notify_caller_change"('c', 'id');
--> statement-breakpoint
CREATE TRIGGER "plans_caller_change" AFTER UPDATE OR DELETE ON "plans"
  FOR EACH ROW EXECUTE FUNCTION "notify_caller_change"('p', 'id');
--> statement-breakpoint
CREATE TRIGGER "sessions_caller_truncate" AFTER TRUNCATE ON "sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_caller_change"();
--> statement-breakpoint
CREATE TRIGGER "users_caller_truncate" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_caller_change"();
--> statement-breakpoint
CREATE TRIGGER "user_queues_caller_truncate" AFTER TRUNCATE ON "user_queues"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_caller_change"();
--> statement-breakpoint
CREATE TRIGGER "companies_caller_truncate" AFTER TRUNCATE ON "companies"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_caller_change"();
--> statement-breakpoint
CREATE TRIGGER "plans_caller_truncate" AFTER TRUNCATE ON "plans"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_caller_change"();
