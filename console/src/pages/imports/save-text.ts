// Saves text made in the page (the failing lines) as a file: no request, the data is on screen.
export function saveText(text: string, filename: string, type = 'text/csv;charset=utf-8'): void {
  const href = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
