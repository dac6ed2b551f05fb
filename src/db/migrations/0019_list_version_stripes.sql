-- Commerce under load (docs/decisions.md, "List versions are striped"): the version of a family of lists was
-- one row, updated by every write to its tables (companies, subscriptions, offers...) and locked until the
-- commit, so that every such transaction waited for the one before it, whatever the tenant. It is now the sum
-- of 64 rows (stripes) besides the first one: a transaction bumps the stripe of its id (xid mod 64), so
-- concurrent writers mostly take different rows. Each row only grows, so the sum moves with every
-- committed write, as the single version did (src/db/list-count.ts). A stripe is made by its first
-- write, so a new family of lists needs no rows of its own.
CREATE OR REPLACE FUNCTION bump_list_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_versions (name, version) VALUES (TG_ARGV[0] || '#' || (pg_current_xact_id()::text::bigint % 64), 1)
    ON CONFLICT (name) DO UPDATE SET version = list_versions.version + 1;
  RETURN NULL;
END
$$;
