CREATE INDEX "pbx_recordings_recorded_name_trgm_idx" ON "pbx_recordings" USING gin ("recorded_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pbx_recordings_recorded_number_trgm_idx" ON "pbx_recordings" USING gin ("recorded_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pbx_recordings_other_number_trgm_idx" ON "pbx_recordings" USING gin ("other_number" gin_trgm_ops);