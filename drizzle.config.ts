import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Every module keeps its tables in its own *.tables.ts files.
  schema: './src/**/*.tables.ts',
  out: './src/db/migrations',
});
