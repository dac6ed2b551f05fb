import { openDatabase } from '../src/db/client.js';
const t0 = Date.now();
const d = openDatabase({});
await d.migrate();
console.log('pglite migrate ms', Date.now() - t0);
const r = await d.db.execute(`select count(*) from users` as any);
console.log(r);
await d.close();
