const t0 = performance.now();
const lap = (s: string) => console.log(`${(performance.now() - t0).toFixed(0).padStart(6)} ms  ${s}  rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
for (const m of process.argv.slice(2)) { await import(m); lap(m); }
