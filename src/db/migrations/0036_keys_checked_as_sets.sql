ALTER TABLE "users" DROP CONSTRAINT "users_company_id_companies_id_fk";
--> statement-breakpoint
ALTER TABLE "licences" DROP CONSTRAINT "licences_subscription_id_subscriptions_id_fk";
--> statement-breakpoint
ALTER TABLE "licences" DROP CONSTRAINT "licences_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "import_lines" DROP CONSTRAINT "import_lines_req_id_imports_id_fk";
--> statement-breakpoint
-- Four keys the bulk import writes a thousand times per batch (a user's company, a licence's
-- subscription and user, a report line's import) are checked per statement, as sets, instead of
-- by foreign keys, which PostgreSQL checks row by row: one query per row and key, half the cost of
-- a licence's insert (docs/decisions.md, Keys checked as sets). Same guarantees:
--   * a row naming a missing parent is refused with SQLSTATE 23503 and the constraint's old name;
--   * the parents named are locked FOR KEY SHARE, as a foreign key's check locks them, so that a
--     concurrent delete of one waits for the writer and then sees its rows;
--   * deleting a parent deletes its licences or report lines (ON DELETE CASCADE) or is refused while
--     users name it (a company); changing a referenced id is refused.
-- The checks run at the end of each statement, as NOT DEFERRABLE keys do.
CREATE FUNCTION svc_key_violation(constraint_name text, table_name text, detail text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'insert or update on table "%" violates foreign key constraint "%"', table_name, constraint_name
    USING ERRCODE = 'foreign_key_violation', CONSTRAINT = constraint_name, TABLE = table_name, DETAIL = detail;
END $$;
--> statement-breakpoint
-- Locks the rows of `parent` whose ids are `ids` FOR KEY SHARE; true when every id has its row.
-- The table is one of three, named in the statement text so that each is planned once per session.
CREATE FUNCTION svc_parents_held(parent text, ids text[]) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  held int;
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN true;
  END IF;
  IF parent = 'companies' THEN
    SELECT count(*) INTO held FROM (SELECT 1 FROM companies p WHERE p.id = ANY (ids) FOR KEY SHARE OF p) x;
  ELSIF parent = 'subscriptions' THEN
    SELECT count(*) INTO held FROM (SELECT 1 FROM subscriptions p WHERE p.id = ANY (ids) FOR KEY SHARE OF p) x;
  ELSIF parent = 'users' THEN
    SELECT count(*) INTO held FROM (SELECT 1 FROM users p WHERE p.id = ANY (ids) FOR KEY SHARE OF p) x;
  ELSIF parent = 'imports' THEN
    SELECT count(*) INTO held FROM (SELECT 1 FROM imports p WHERE p.id = ANY (ids) FOR KEY SHARE OF p) x;
  ELSE
    RAISE EXCEPTION 'svc_parents_held: unknown parent %', parent;
  END IF;
  RETURN held = cardinality(ids);
END $$;
--> statement-breakpoint
-- Child side. On INSERT every row's key; on UPDATE the key values the statement newly names.
CREATE FUNCTION users_company_held() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT company_id) INTO ids FROM new_rows;
  ELSE
    SELECT array_agg(k) INTO ids FROM (SELECT company_id AS k FROM new_rows EXCEPT SELECT company_id FROM old_rows) x;
  END IF;
  IF NOT svc_parents_held('companies', coalesce(ids, '{}')) THEN
    PERFORM svc_key_violation('users_company_id_companies_id_fk', 'users', 'A user names a company that does not exist.');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_company_held_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_company_held();
--> statement-breakpoint
CREATE TRIGGER users_company_held_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_company_held();
--> statement-breakpoint
CREATE FUNCTION licences_parents_held() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  subscription_ids text[];
  user_ids text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT subscription_id) INTO subscription_ids FROM new_rows;
    SELECT array_agg(DISTINCT user_id) INTO user_ids FROM new_rows;
  ELSE
    SELECT array_agg(k) INTO subscription_ids
      FROM (SELECT subscription_id AS k FROM new_rows EXCEPT SELECT subscription_id FROM old_rows) x;
    SELECT array_agg(k) INTO user_ids FROM (SELECT user_id AS k FROM new_rows EXCEPT SELECT user_id FROM old_rows) x;
  END IF;
  IF NOT svc_parents_held('subscriptions', coalesce(subscription_ids, '{}')) THEN
    PERFORM svc_key_violation('licences_subscription_id_subscriptions_id_fk', 'licences',
      'A licence names a subscription that does not exist.');
  END IF;
  IF NOT svc_parents_held('users', coalesce(user_ids, '{}')) THEN
    PERFORM svc_key_violation('licences_user_id_users_id_fk', 'licences', 'A licence names a user who does not exist.');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER licences_parents_held_insert AFTER INSERT ON licences REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION licences_parents_held();
--> statement-breakpoint
CREATE TRIGGER licences_parents_held_update AFTER UPDATE ON licences REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION licences_parents_held();
--> statement-breakpoint
CREATE FUNCTION import_lines_import_held() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT req_id) INTO ids FROM new_rows;
  ELSE
    SELECT array_agg(k) INTO ids FROM (SELECT req_id AS k FROM new_rows EXCEPT SELECT req_id FROM old_rows) x;
  END IF;
  IF NOT svc_parents_held('imports', coalesce(ids, '{}')) THEN
    PERFORM svc_key_violation('import_lines_req_id_imports_id_fk', 'import_lines',
      'A report line names an import that does not exist.');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER import_lines_import_held_insert AFTER INSERT ON import_lines REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION import_lines_import_held();
--> statement-breakpoint
CREATE TRIGGER import_lines_import_held_update AFTER UPDATE ON import_lines REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION import_lines_import_held();
--> statement-breakpoint
-- Parent side: what the keys' ON DELETE did, once per statement. The statements inside run with a
-- snapshot taken after the delete's row locks were granted, so they see the rows of a writer the
-- delete waited for.
CREATE FUNCTION companies_keep_users() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM users u WHERE u.company_id IN (SELECT id FROM old_rows)) THEN
    PERFORM svc_key_violation('users_company_id_companies_id_fk', 'users', 'A company is still named by its users.');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER companies_keep_users AFTER DELETE ON companies REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION companies_keep_users();
--> statement-breakpoint
-- A cascade: deletes the rows of TG_ARGV[0] whose column TG_ARGV[1] names a deleted row.
CREATE FUNCTION svc_delete_children() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DELETE FROM %I WHERE %I IN (SELECT id FROM old_rows)', TG_ARGV[0], TG_ARGV[1]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER subscriptions_delete_licences AFTER DELETE ON subscriptions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION svc_delete_children('licences', 'subscription_id');
--> statement-breakpoint
CREATE TRIGGER users_delete_licences AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION svc_delete_children('licences', 'user_id');
--> statement-breakpoint
CREATE TRIGGER imports_delete_lines AFTER DELETE ON imports REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION svc_delete_children('import_lines', 'req_id');
--> statement-breakpoint
-- A referenced id never changes (ON UPDATE NO ACTION of the keys); ids are never rewritten here.
CREATE FUNCTION svc_referenced_id_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  referenced boolean;
BEGIN
  referenced := CASE TG_TABLE_NAME
    WHEN 'companies' THEN EXISTS (SELECT 1 FROM users WHERE company_id = OLD.id)
    WHEN 'subscriptions' THEN EXISTS (SELECT 1 FROM licences WHERE subscription_id = OLD.id)
    WHEN 'users' THEN EXISTS (SELECT 1 FROM licences WHERE user_id = OLD.id)
    WHEN 'imports' THEN EXISTS (SELECT 1 FROM import_lines WHERE req_id = OLD.id)
  END;
  IF referenced THEN
    PERFORM svc_key_violation(TG_ARGV[0], TG_TABLE_NAME, 'A referenced id cannot change.');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER companies_id_kept AFTER UPDATE OF id ON companies FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION svc_referenced_id_kept('users_company_id_companies_id_fk');
--> statement-breakpoint
CREATE TRIGGER subscriptions_id_kept AFTER UPDATE OF id ON subscriptions FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION svc_referenced_id_kept('licences_subscription_id_subscriptions_id_fk');
--> statement-breakpoint
CREATE TRIGGER users_id_kept AFTER UPDATE OF id ON users FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION svc_referenced_id_kept('licences_user_id_users_id_fk');
--> statement-breakpoint
CREATE TRIGGER imports_id_kept AFTER UPDATE OF id ON imports FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION svc_referenced_id_kept('import_lines_req_id_imports_id_fk');
