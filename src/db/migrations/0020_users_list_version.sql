-- docs/decisions.md, Performance, "Exact list answers at a bounded cost": the users lists are remembered like
-- the companies lists (src/db/list-count.ts, users.repo.ts listUserRows). A page of users reads the users
-- table and, through the caller's scope, the companies table (a partner reaches the users of his customers'
-- companies, an organisation's admin those of its companies): a write to either moves the 'users' version.
INSERT INTO list_versions (name, version) VALUES ('users', 1) ON CONFLICT (name) DO NOTHING;
--> statement-breakpoint
CREATE TRIGGER users_users_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('users');
--> statement-breakpoint
CREATE TRIGGER companies_users_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('users');
