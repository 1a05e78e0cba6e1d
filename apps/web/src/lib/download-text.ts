/** Saves text as a file through a temporary object URL (the browser's download). */
export const downloadText = (fileName: string, text: string, type = 'text/csv;charset=utf-8') => {
  // A byte-order mark so spreadsheet programs read the file as UTF-8.
  const blob = new Blob(['\uFEFF', text], { type });
  const url = URL.createObjectURL(blob);
  saveHref(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 0);
};

/** Hands `href` to the browser's download as `fileName`: an anchor with the file's name, clicked. */
export const saveHref = (href: string, fileName: string) => {
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
};
