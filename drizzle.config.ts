import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/db/schema.ts', './src/events/outbox.schema.ts', './src/xmpp/xmpp.schema.ts', './src/ports/ports.schema.ts'],
  out: './src/db/migrations',
});
