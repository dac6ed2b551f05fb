// Policy of companies (document 3).
import type { PolicyEntry } from '../grant.js';

export const companiesPolicy: Record<string, PolicyEntry> = {};
