// Unicode text in PDFs. pdfkit's standard fonts (Helvetica...) only cover WinAnsi, so names in
// Chinese, Arabic, Cyrillic or Greek did not render. The Noto fonts shipped by npm packages
// (@embedpdf/fonts-latin: Latin, Greek, Cyrillic; -arabic; -sc: Chinese, GB2312) are embedded
// instead, subset to the glyphs used. No font covers every script, so text is cut into runs, each
// set in the first font that has its characters (spaces and punctuation stay with the run they
// are in, so an Arabic phrase stays one right-to-left run that fontkit lays out in visual order).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as Fontkit from 'fontkit';

// fontkit (and its brotli and unicode tables) loads with the first PDF (registerUnicodeFonts), not at every start.
let fontkitLib: typeof Fontkit | undefined;
function fontkit(): typeof Fontkit {
  if (!fontkitLib) throw new Error('fontkit is loaded by registerUnicodeFonts, before any text is laid out');
  return fontkitLib;
}

/** A font file holds one font, not a collection (the Noto files below are single fonts). */
const single = (f: Fontkit.Font | Fontkit.FontCollection): f is Fontkit.Font => !('fonts' in f);

type FontFace = 'regular' | 'bold';
type Script = 'latin' | 'arabic' | 'cjk';

const FILES: Record<Script, { pkg: string; regular: string; bold: string }> = {
  latin: { pkg: '@embedpdf/fonts-latin', regular: 'NotoSans-Regular.ttf', bold: 'NotoSans-Bold.ttf' },
  arabic: { pkg: '@embedpdf/fonts-arabic', regular: 'NotoNaskhArabic-Regular.ttf', bold: 'NotoNaskhArabic-Bold.ttf' },
  // One weight only: the CJK files are 8 MB each, and bold is only used for Latin labels.
  cjk: { pkg: '@embedpdf/fonts-sc', regular: 'NotoSansHans-Regular.otf', bold: 'NotoSansHans-Regular.otf' },
};
const ORDER: Script[] = ['latin', 'arabic', 'cjk'];

/** The packages export only their index; the font files sit in `fonts/` beside `dist/`. */
function fontPath(pkg: string, file: string): string {
  return fileURLToPath(new URL(`../fonts/${file}`, import.meta.resolve(pkg)));
}

const buffers = new Map<string, Buffer>();
const coverage = new Map<Script, Fontkit.Font>();

function fontBytes(script: Script, face: FontFace): Buffer {
  const f = FILES[script];
  const key = `${script}-${face}`;
  let b = buffers.get(key);
  if (!b) {
    b = readFileSync(fontPath(f.pkg, f[face]));
    buffers.set(key, b);
  }
  return b;
}

function covers(script: Script, cp: number): boolean {
  let font = coverage.get(script);
  if (!font) {
    const made = fontkit().create(fontBytes(script, 'regular'));
    if (!single(made)) throw new Error(`the ${script} font file is a collection`);
    font = made;
    coverage.set(script, font);
  }
  return font.hasGlyphForCodePoint(cp);
}

/**
 * Noto Naskh's required ligatures (rlig) map one glyph to several letters; text extraction
 * (poppler) then puts those letters of a right-to-left run in the wrong order and the name can no
 * longer be found or copied. Without rlig the letters keep their joined contextual forms (lam-alef
 * still joins through the font's other features), and every name extracts as it was written.
 */
// pdfkit passes `features` to fontkit, which takes an object of features on or off; pdfkit's types
// allow only a list of features to turn on, so this one value is asserted.
// eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- pdfkit's types are narrower than pdfkit
const ARABIC_FEATURES = { rlig: false } as unknown as PDFKit.Mixins.OpenTypeFeatures[];

/** Characters that belong to no script: they join the run they are in. */
const NEUTRAL = /[\s\p{P}\p{S}\p{N}]/u;
const DIGIT = /\p{Nd}/u;

export interface Run {
  text: string;
  font: string;
  /** Right-to-left (Arabic): fontkit lays it out in visual order. */
  rtl: boolean;
}

/** The font name registered by `registerUnicodeFonts` for a script and face. */
const fontName = (script: Script, face: FontFace) => `${script}-${face}`;

/** Splits `text` into runs, each in a font that has its characters (Latin when none has). */
export function runs(text: string, face: FontFace): Run[] {
  const out: { text: string; script: Script }[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const last = out[out.length - 1];
    // Digits never join a right-to-left run: fontkit would reverse them with it (2024 -> 4202).
    if (last && NEUTRAL.test(ch) && covers(last.script, cp) && !(last.script === 'arabic' && DIGIT.test(ch))) {
      last.text += ch;
      continue;
    }
    const script = ORDER.find((s) => covers(s, cp)) ?? 'latin';
    if (last && last.script === script) last.text += ch;
    else out.push({ text: ch, script });
  }
  return out.map((r) => ({ text: r.text, font: fontName(r.script, face), rtl: r.script === 'arabic' }));
}

/** Registers the fonts on a document (read from disk once per process; pdfkit embeds subsets). */
export async function registerUnicodeFonts(doc: PDFKit.PDFDocument): Promise<void> {
  fontkitLib ??= await import('fontkit');
  for (const script of ORDER)
    for (const face of ['regular', 'bold'] as const) doc.registerFont(fontName(script, face), fontBytes(script, face));
}

/**
 * Writes `text` at the current position in the given face and size; `continued` keeps the line
 * open for what follows (pdfkit's own option), as for a label followed by its value.
 */
export function writeText(
  doc: PDFKit.PDFDocument,
  text: string,
  face: FontFace,
  opts: { continued?: boolean } = {},
): PDFKit.PDFDocument {
  const parts = runs(text === '' ? ' ' : text, face);
  parts.forEach((r, i) => {
    const continued = i < parts.length - 1 || opts.continued === true;
    doc.font(r.font).text(r.text, r.rtl ? { continued, features: ARABIC_FEATURES } : { continued });
  });
  return doc;
}
