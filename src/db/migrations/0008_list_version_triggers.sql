-- Any write to companies, subscriptions or offers (the tables listCompanies filters on) moves the
-- version of the 'companies' lists, in the writing transaction: a count remembered at an older
-- version is then counted again (src/db/list-count.ts).
INSERT INTO list_versions (name, version) VALUES ('companies', 1) ON CONFLICT (name) DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_list_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE list_versions SET version = version + 1 WHERE name = TG_ARGV[0];
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER companies_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('companies');
--> statement-breakpoint
CREATE TRIGGER subscriptions_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON subscriptions
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('companies');
--> statement-breakpoint
CREATE TRIGGER offers_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON offers
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('companies');
