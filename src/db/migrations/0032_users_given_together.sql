-- Users created together (the bulk import's batches: issue 27, point 8) are given their JID and
-- their company's organisation by the INSERT itself, read once for the batch under the same share
-- lock of the company (users.service.ts createUsersTogether): the row triggers then stand aside.
-- Every other path is unchanged: a row without jid_im gets one, and the organisation is taken
-- from the company unless the transaction says it gave it (svc.users_organisation_given = on,
-- set around the batch's INSERT only).
DROP TRIGGER users_jid_im ON users;
--> statement-breakpoint
CREATE TRIGGER users_jid_im BEFORE INSERT ON users FOR EACH ROW WHEN (NEW.jid_im IS NULL) EXECUTE FUNCTION svc_user_jid_im();
--> statement-breakpoint
DROP TRIGGER users_take_company_organisation ON users;
--> statement-breakpoint
CREATE TRIGGER users_take_company_organisation BEFORE INSERT OR UPDATE OF company_id, organisation_id ON users FOR EACH ROW
  WHEN (current_setting('svc.users_organisation_given', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION users_take_company_organisation();
