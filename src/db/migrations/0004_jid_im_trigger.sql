-- Every new user gets a JID on the configured user domain (service_settings.xmpp_user_domain,
-- written at start from XMPP_USER_DOMAIN), whichever code path inserts him; existing users get one now.
CREATE OR REPLACE FUNCTION svc_user_jid_im() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.jid_im IS NULL THEN
    NEW.jid_im := NEW.id || '@' || COALESCE((SELECT value FROM service_settings WHERE key = 'xmpp_user_domain'), 'localhost');
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_jid_im BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION svc_user_jid_im();
--> statement-breakpoint
UPDATE users SET jid_im = id || '@' || COALESCE((SELECT value FROM service_settings WHERE key = 'xmpp_user_domain'), 'localhost') WHERE jid_im IS NULL;
