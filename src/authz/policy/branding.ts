// Policy of branding (document 3).
import type { PolicyEntry } from '../grant.js';

export const brandingPolicy: Record<string, PolicyEntry> = {};
