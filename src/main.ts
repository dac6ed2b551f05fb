// Entry point of `npm start`: the module resolution hook first (it must precede every import of
// the packages it redirects, hence the dynamic import), then the service (src/serve.ts).
import { enableCompileCache, preferCommonJsBuilds } from './load-hooks.ts';

enableCompileCache();
preferCommonJsBuilds();
await import('./serve.ts');
