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
-- Child side, one trigger per key and event: TG_ARGV[0] the key's column, TG_ARGV[1] the parent
-- table, TG_ARGV[2] the key's name. On INSERT every row's key is checked; on UPDATE the values the
-- statement newly names. The parents are locked FOR KEY SHARE and counted in one query.
CREATE FUNCTION svc_key_held() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
  held int;
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE format('SELECT array_agg(DISTINCT %I) FROM new_rows', TG_ARGV[0]) INTO ids;
  ELSE
    EXECUTE format('SELECT array_agg(k) FROM (SELECT %1$I AS k FROM new_rows EXCEPT SELECT %1$I FROM old_rows) x',
      TG_ARGV[0]) INTO ids;
  END IF;
  IF ids IS NULL THEN
    RETURN NULL;
  END IF;
  EXECUTE format('SELECT count(*) FROM (SELECT 1 FROM %I p WHERE p.id = ANY ($1) FOR KEY SHARE OF p) x', TG_ARGV[1])
    USING ids INTO held;
  IF held <> cardinality(ids) THEN
    PERFORM svc_key_violation(TG_ARGV[2], TG_TABLE_NAME,
      format('A row of %s names a row of %s that does not exist.', TG_TABLE_NAME, TG_ARGV[1]));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_company_held_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION svc_key_held('company_id', 'companies', 'users_company_id_companies_id_fk');
--> statement-breakpoint
CREATE TRIGGER users_company_held_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION svc_key_held('company_id', 'companies', 'users_company_id_companies_id_fk');
--> statement-breakpoint
CREATE TRIGGER licences_subscription_held_insert AFTER INSERT ON licences REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION
  svc_key_held('subscription_id', 'subscriptions', 'licences_subscription_id_subscriptions_id_fk');
--> statement-breakpoint
CREATE TRIGGER licences_subscription_held_update AFTER UPDATE ON licences
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION
  svc_key_held('subscription_id', 'subscriptions', 'licences_subscription_id_subscriptions_id_fk');
--> statement-breakpoint
CREATE TRIGGER licences_user_held_insert AFTER INSERT ON licences REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION svc_key_held('user_id', 'users', 'licences_user_id_users_id_fk');
--> statement-breakpoint
CREATE TRIGGER licences_user_held_update AFTER UPDATE ON licences REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION svc_key_held('user_id', 'users', 'licences_user_id_users_id_fk');
--> statement-breakpoint
CREATE TRIGGER import_lines_import_held_insert AFTER INSERT ON import_lines REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION svc_key_held('req_id', 'imports', 'import_lines_req_id_imports_id_fk');
--> statement-breakpoint
CREATE TRIGGER import_lines_import_held_update AFTER UPDATE ON import_lines
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION svc_key_held('req_id', 'imports', 'import_lines_req_id_imports_id_fk');
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
-- TG_ARGV[0] the child table, TG_ARGV[1] its key's column, TG_ARGV[2] the key's name.
CREATE FUNCTION svc_referenced_id_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  referenced boolean;
BEGIN
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE %I = $1)', TG_ARGV[0], TG_ARGV[1]) USING OLD.id INTO referenced;
  IF referenced THEN
    PERFORM svc_key_violation(TG_ARGV[2], TG_TABLE_NAME, 'A referenced id cannot change.');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER companies_id_kept AFTER UPDATE OF id ON companies FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION svc_referenced_id_kept('users', 'company_id', 'users_company_id_companies_id_fk');
--> statement-breakpoint
CREATE TRIGGER subscriptions_id_kept AFTER UPDATE OF id ON subscriptions FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION
  svc_referenced_id_kept('licences', 'subscription_id', 'licences_subscription_id_subscriptions_id_fk');
--> statement-breakpoint
CREATE TRIGGER users_id_kept AFTER UPDATE OF id ON users FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION svc_referenced_id_kept('licences', 'user_id', 'licences_user_id_users_id_fk');
--> statement-breakpoint
CREATE TRIGGER imports_id_kept AFTER UPDATE OF id ON imports FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION svc_referenced_id_kept('import_lines', 'req_id', 'import_lines_req_id_imports_id_fk');
