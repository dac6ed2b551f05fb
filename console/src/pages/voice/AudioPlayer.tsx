// Playing audio the API answers (greetings, recordings) in the page (issue 28, point 4): the file
// needs the bearer token, which an <audio src> cannot send, so it is fetched (fetchFile) and the
// player gets an object URL, released when another file is loaded or the player goes.
import { Button, Group, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { fetchFile } from '../../lib/download.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';

interface Props {
  /** The audio's address on the API. */
  url: string;
  /** What is played, for the button's and the player's names. */
  label: string;
}

export function AudioPlayer({ url, label }: Props) {
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const audio = useRef<HTMLAudioElement>(null);
  useEffect(
    () => () => {
      if (src) URL.revokeObjectURL(src);
    },
    [src],
  );
  const play = async () => {
    setError(null);
    setProblem(null);
    setLoading(true);
    try {
      const blob = await fetchFile(url);
      setSrc(URL.createObjectURL(blob));
    } catch (e) {
      setError(e);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    // Starts once the object URL is the player's: the click that asked for it allows playback.
    if (src && audio.current)
      audio.current.play().catch((e: unknown) => setProblem(e instanceof Error ? e.message : String(e)));
  }, [src]);
  return (
    <div>
      <ErrorNotice error={error} />
      <Group gap="xs">
        {src ? null : (
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => void play()}
            loading={loading}
            aria-label={`Play ${label}`}
          >
            Play
          </Button>
        )}
        {src ? (
          <audio
            ref={audio}
            controls
            src={src}
            aria-label={`Audio of ${label}`}
            data-testid="audio-player"
            onError={() => setProblem('The browser cannot play this file')}
            style={{ height: 32 }}
          />
        ) : null}
        {problem ? (
          <Text size="xs" c="red" role="status">
            {problem}
          </Text>
        ) : null}
      </Group>
    </div>
  );
}
