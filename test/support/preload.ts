// Loaded before every test file (`npm test`: --import): the test files load the service's modules
// as src/main.ts does from the sources, with drizzle-orm's and PGlite's CommonJS builds
// (src/load-hooks.ts): their ES builds cost each file's process about half a second more.
import { preferCommonJsBuilds } from '../../src/load-hooks.ts';

preferCommonJsBuilds();
