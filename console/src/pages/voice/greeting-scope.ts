// The scope of a CloudPBX's greetings (document 2, Greetings; issue 26, point 3): the company's,
// a welcome service's (ivrId), a hunting group's (groupId) or the console attendant's. The page
// holds it as one string for its picker.
export type GreetingScope = { ivrId: string } | { groupId: string } | { attendant: true } | Record<string, never>;

export function scopeOf(key: string): GreetingScope {
  if (key === 'attendant') return { attendant: true };
  if (key.startsWith('ivr:')) return { ivrId: key.slice(4) };
  if (key.startsWith('group:')) return { groupId: key.slice(6) };
  return {};
}

/** The scope as a query string for an address built by hand (the audio, fetched with the token). */
export function scopeQuery(scope: GreetingScope): string {
  const q = new URLSearchParams(Object.entries(scope).map(([k, v]) => [k, String(v)]));
  const s = q.toString();
  return s ? `?${s}` : '';
}
