// The time now, renewed every `everyMs`: what a page compares end dates with (a debug session
// still on), kept in state so that rendering stays pure and the page updates when time passes.
import { useEffect, useState } from 'react';

export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}
