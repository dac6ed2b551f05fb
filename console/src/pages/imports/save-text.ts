// Saves text made in the page (the failing lines) as a file: no request, the data is on screen.
import { saveBlob } from '../../lib/download.ts';

export function saveText(text: string, filename: string, type = 'text/csv;charset=utf-8'): void {
  saveBlob(new Blob([text], { type }), filename);
}
