// npm run openapi: writes the OpenAPI document the service serves (to the file given, else to
// standard output), for linting in CI and for client generators. Built in memory: no data folder.
import { writeFileSync } from 'node:fs';
import { openDatabase } from '../src/db/client.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/app.ts';
import { loadServerKeys } from '../src/shared/keys.ts';

const database = openDatabase({});
await database.migrate();
const config = loadConfig({});
const app = await buildApp({ database, config, keys: await loadServerKeys(database.db), now: () => new Date() });
const text = `${JSON.stringify(app.swagger(), null, 2)}\n`;
await app.close();
await database.close();
if (process.argv[2]) writeFileSync(process.argv[2], text);
else process.stdout.write(text);
