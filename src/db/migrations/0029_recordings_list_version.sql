-- docs/decisions.md, "CloudPBX: recordings" (issue 26, points 5 and 9): the recordings lists are remembered like
-- the users lists (src/db/list-count.ts, recordings.repo.ts listRecordingRows): their page and total read
-- pbx_recordings alone (the recorded party's names are copied at ingestion), so a write to it moves the
-- 'recordings' version and nothing else does.
INSERT INTO list_versions (name, version) VALUES ('recordings', 1) ON CONFLICT (name) DO NOTHING;
--> statement-breakpoint
CREATE TRIGGER pbx_recordings_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pbx_recordings
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('recordings');
