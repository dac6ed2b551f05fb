// Policy of join (document 3).
import type { PolicyEntry } from '../grant.js';

export const joinPolicy: Record<string, PolicyEntry> = {};
