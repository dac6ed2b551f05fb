// An object URL for a Blob, revoked when the blob changes or the component goes away.
import { useEffect, useState } from 'react';

export function useObjectUrl(blob: Blob | null | undefined): string | null {
  const [entry, setEntry] = useState<{ blob: Blob; url: string } | null>(null);
  useEffect(() => {
    if (!blob) return;
    const url = URL.createObjectURL(blob);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the URL is a resource of the browser made and released with the effect; made during render, a StrictMode double render or mount would revoke one still shown
    setEntry({ blob, url });
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  // A URL made for an earlier blob (already revoked) is never handed out.
  return blob && entry?.blob === blob ? entry.url : null;
}
