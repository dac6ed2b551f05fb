-- A subscription's number_assigned_users counts its licence rows. An assignment adds the row and
-- raises the count in one guarded UPDATE (commerce licences.repo.ts); every removal of rows (an
-- unassignment, a deleted user whose rows the foreign key cascades, a deleted subscription) lowers
-- it here, in the statement that removes them, whatever path removed them. Statement-level with
-- the transition table: deleting a company's thousand users is one UPDATE per subscription.
CREATE FUNCTION licences_release_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE subscriptions s SET number_assigned_users = s.number_assigned_users - d.n
  FROM (SELECT subscription_id, count(*)::int AS n FROM released GROUP BY subscription_id) d
  WHERE s.id = d.subscription_id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER licences_release_counts AFTER DELETE ON "licences" REFERENCING OLD TABLE AS released FOR EACH STATEMENT EXECUTE FUNCTION licences_release_counts();
