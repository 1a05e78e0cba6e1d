/**
 * Whether the page is laid out right to left (an Arabic page: `dir="rtl"` on `<html>`, set with
 * the language). Rows, swipes and arrow keys follow the reading direction.
 */
export const isRightToLeft = (): boolean =>
  typeof document !== 'undefined' && document.documentElement.dir === 'rtl';
