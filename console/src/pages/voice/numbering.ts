// The numbering plan's prefixes as typed in a form (document 2, createCloudPbx: numberingPrefixes).

/** Digits strings of a comma- or space-separated list ("2, 3" → ["2", "3"]). */
export function prefixesOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
