CREATE INDEX "pbx_recordings_pbx_duration_idx" ON "pbx_recordings" USING btree ("cloudpbx_id","duration","id");--> statement-breakpoint
CREATE INDEX "pbx_recordings_pbx_recorded_name_idx" ON "pbx_recordings" USING btree ("cloudpbx_id","recorded_name","id");--> statement-breakpoint
CREATE INDEX "pbx_recordings_pbx_recorded_number_idx" ON "pbx_recordings" USING btree ("cloudpbx_id","recorded_number","id");--> statement-breakpoint
CREATE INDEX "pbx_recordings_pbx_other_number_idx" ON "pbx_recordings" USING btree ("cloudpbx_id","other_number","id");