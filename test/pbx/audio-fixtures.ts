// Audio generated for the tests of greetings and recordings (issue 26, points 3 to 5): WAV files in
// PCM, A-law and µ-law, and MP3 files made of silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz,
// mono: 417 bytes and 1152 samples a frame). Generated, so no binary fixture is committed.

/** A WAV file of `seconds` of silence: format 1 (PCM, 16 bits), 6 (A-law) or 7 (µ-law), 8 bits for the G.711 laws. */
export function wav(codec: 'pcm' | 'alaw' | 'ulaw', seconds: number, rate = 8000): Buffer {
  const format = { pcm: 1, alaw: 6, ulaw: 7 }[codec];
  const bits = codec === 'pcm' ? 16 : 8;
  const blockAlign = bits / 8;
  const samples = Math.round(seconds * rate);
  // Silence: 0 in PCM, 0xd5 in A-law, 0xff in µ-law.
  const data = Buffer.alloc(samples * blockAlign, codec === 'pcm' ? 0 : codec === 'alaw' ? 0xd5 : 0xff);
  const fmtSize = codec === 'pcm' ? 16 : 18;
  const h = Buffer.alloc(12 + 8 + fmtSize + 8);
  h.write('RIFF', 0);
  h.writeUInt32LE(4 + 8 + fmtSize + 8 + data.length, 4);
  h.write('WAVE', 8);
  h.write('fmt ', 12);
  h.writeUInt32LE(fmtSize, 16);
  h.writeUInt16LE(format, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * blockAlign, 28);
  h.writeUInt16LE(blockAlign, 32);
  h.writeUInt16LE(bits, 34);
  const d = 20 + fmtSize;
  h.write('data', d);
  h.writeUInt32LE(data.length, d + 4);
  return Buffer.concat([h, data]);
}

/** A WAV header announcing `seconds` of 16-bit PCM followed by `body` bytes of data (a truncated file when fewer). */
export function wavHeaderOnly(seconds: number, rate = 8000): Buffer {
  return wav('pcm', seconds, rate).subarray(0, 44);
}

const FRAME = (() => {
  const f = Buffer.alloc(417);
  // Sync, MPEG-1, Layer III, no CRC; 128 kbit/s, 44.1 kHz, no padding; mono.
  f.set([0xff, 0xfb, 0x90, 0xc0], 0);
  return f;
})();
/** Seconds of one MPEG-1 Layer III frame at 44.1 kHz. */
export const MP3_FRAME_SECONDS = 1152 / 44100;

/** An MP3 of about `seconds` of silence (whole frames). */
export function mp3(seconds: number): Buffer {
  const frames = Math.max(1, Math.round(seconds / MP3_FRAME_SECONDS));
  return Buffer.concat(Array.from({ length: frames }, () => FRAME));
}
