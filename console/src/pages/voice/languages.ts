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
