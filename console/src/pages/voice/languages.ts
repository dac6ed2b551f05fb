// The languages of a CloudPBX's prompts (document 2, createCloudPbx: language).
import type { Language } from './types.ts';

export const LANGUAGES: { value: Language; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'fr', label: 'French' },
  { value: 'de', label: 'German' },
  { value: 'es', label: 'Spanish' },
  { value: 'it', label: 'Italian' },
  { value: 'nl', label: 'Dutch' },
  { value: 'ro', label: 'Romanian' },
  { value: 'ar', label: 'Arabic' },
  { value: 'he', label: 'Hebrew' },
];

export function languageOf(v: string | null): Language | undefined {
  return LANGUAGES.find((l) => l.value === v)?.value;
}

/** Digits strings of a comma- or space-separated list ("2, 3" → ["2", "3"]). */
export function prefixesOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
