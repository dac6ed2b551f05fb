// npm run settings: the README's configuration table, from src/settings.ts.
import { settingsTable } from '../src/config.ts';

process.stdout.write(`${settingsTable()}\n`);
