import { enableCompileCache, preferCommonJsBuilds } from './src/load-hooks.ts';
enableCompileCache();
preferCommonJsBuilds();
await import('./src/serve.ts');
