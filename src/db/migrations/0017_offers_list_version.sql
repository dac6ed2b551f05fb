-- Offer lists under load (docs/decisions.md): any write to offers or catalog_offers (what the offer lists
-- read) moves the version of the 'offers' lists in the writing transaction; a page and count remembered at an
-- older version are then computed again (src/db/list-count.ts, offers.repo.ts listOfferRows).
INSERT INTO list_versions (name, version) VALUES ('offers', 1) ON CONFLICT (name) DO NOTHING;
--> statement-breakpoint
CREATE TRIGGER offers_offers_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON offers
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('offers');
--> statement-breakpoint
CREATE TRIGGER catalog_offers_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON catalog_offers
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('offers');
