-- Commerce under load (docs/decisions.md): the companies lists read subscriptions only through their filters (a
-- company holding a subscription to an offer, or to an offer with given attributes, that is not
-- terminated). A subscription's other columns (its synchronisation's steps, its licence count,
-- its dates) never change what such a list holds, yet every update of one moved the companies
-- list version: three times per subscription created, each an extra row write on the stripes,
-- and each making the remembered pages of every companies list stale. Inserts and deletes still
-- move it; an update moves it only when a row changes company, offer, or passes to or from
-- `terminated`.
DROP TRIGGER IF EXISTS subscriptions_list_version ON subscriptions;
--> statement-breakpoint
CREATE TRIGGER subscriptions_list_version AFTER INSERT OR DELETE OR TRUNCATE ON subscriptions
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('companies');
--> statement-breakpoint
CREATE TRIGGER subscriptions_list_version_update AFTER UPDATE OF company_id, offer_id, status ON subscriptions
  FOR EACH ROW WHEN (OLD.company_id IS DISTINCT FROM NEW.company_id OR OLD.offer_id IS DISTINCT FROM NEW.offer_id
    OR (OLD.status = 'terminated') IS DISTINCT FROM (NEW.status = 'terminated'))
  EXECUTE FUNCTION bump_list_version('companies');
