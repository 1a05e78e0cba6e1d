import { saveHref } from './save-file.ts';

/** Saves text as a file through a temporary object URL (the browser's download). */
export const downloadText = (fileName: string, text: string, type = 'text/csv;charset=utf-8') => {
  // A byte-order mark so spreadsheet programs read the file as UTF-8.
  const blob = new Blob(['\uFEFF', text], { type });
  const url = URL.createObjectURL(blob);
  saveHref(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 0);
};
