// node:http's own exports, read without the ES module facade that `import … from 'node:http'`
// makes: the facade reads every export of the module once, and node:http's `WebSocket`,
// `CloseEvent` and `MessageEvent` are getters that load Node's whole fetch implementation
// (undici), which the service never uses: some 50 to 65 ms of the service's thread at each start
// (docs/decisions.md, Performance, "node:http without its module facade"). Type-only imports of
// node:http cost nothing and stay as they are.
export const nodeHttp = process.getBuiltinModule('node:http');
