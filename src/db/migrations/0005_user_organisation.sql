ALTER TABLE "users" ADD COLUMN "organisation_id" text;--> statement-breakpoint
-- users.organisation_id is a copy of the organisation of the user's company (document 3: a
-- company's users are attached to its organisation), kept by the two triggers below in the
-- transaction of the change. Written by hand after the generated line above: keep it when
-- regenerating migrations.
UPDATE "users" u SET "organisation_id" = c."organisation_id" FROM "companies" c WHERE c."id" = u."company_id" AND c."organisation_id" IS NOT NULL;
--> statement-breakpoint
-- A new user, or a user moved to another company, takes that company's organisation. FOR SHARE
-- waits for a concurrent link or unlink of the company to commit (and makes it wait for this
-- insert), so the copy is never left stale by a race.
CREATE FUNCTION users_take_company_organisation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT c.organisation_id INTO NEW.organisation_id FROM companies c WHERE c.id = NEW.company_id FOR SHARE;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_take_company_organisation BEFORE INSERT OR UPDATE OF company_id, organisation_id ON "users" FOR EACH ROW EXECUTE FUNCTION users_take_company_organisation();
--> statement-breakpoint
-- A company linked to or unlinked from an organisation (or whose organisation is deleted) takes
-- its users along.
CREATE FUNCTION companies_give_users_organisation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users SET organisation_id = NEW.organisation_id WHERE company_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER companies_give_users_organisation AFTER UPDATE OF organisation_id ON "companies" FOR EACH ROW WHEN (OLD.organisation_id IS DISTINCT FROM NEW.organisation_id) EXECUTE FUNCTION companies_give_users_organisation();
