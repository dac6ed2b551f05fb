-- docs/decisions.md, Performance, "Exact list answers at a bounded cost": the hosted PBX's lists (DDI
-- numbers, SIP devices) are remembered like the companies lists (src/db/list-count.ts). Their pages read
-- the PBX's tables and, for what they show, the users (names), the systems (pbxId, company) and the
-- CloudPBX's settings (trunk), its groups (numbering plan) and welcome services (a DDI's welcomeName): a write to any of them moves the 'pbx' version.
INSERT INTO list_versions (name, version) VALUES ('pbx', 1) ON CONFLICT (name) DO NOTHING;
--> statement-breakpoint
CREATE TRIGGER pbx_ddis_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pbx_ddis
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('pbx');
--> statement-breakpoint
CREATE TRIGGER pbx_devices_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pbx_devices
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('pbx');
--> statement-breakpoint
CREATE TRIGGER pbx_subscribers_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pbx_subscribers
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('pbx');
--> statement-breakpoint
CREATE TRIGGER pbx_cloudpbxs_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pbx_cloudpbxs
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('pbx');
--> statement-breakpoint
CREATE TRIGGER systems_pbx_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON systems
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('pbx');
--> statement-breakpoint
CREATE TRIGGER users_pbx_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('pbx');
--> statement-breakpoint
CREATE TRIGGER pbx_groups_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pbx_groups
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('pbx');
--> statement-breakpoint
CREATE TRIGGER pbx_group_members_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pbx_group_members
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('pbx');
--> statement-breakpoint
CREATE TRIGGER pbx_ivrs_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pbx_ivrs
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('pbx');
