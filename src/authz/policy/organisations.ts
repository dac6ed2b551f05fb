// Policy of organisations (document 3).
import type { PolicyEntry } from '../grant.js';

export const organisationsPolicy: Record<string, PolicyEntry> = {};
