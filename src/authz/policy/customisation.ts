// Policy of customisation (document 3).
import type { PolicyEntry } from '../grant.js';

export const customisationPolicy: Record<string, PolicyEntry> = {};
